# Homebrew formula for memhunt, kept in the repository: `brew install --formula ./Formula/memhunt.rb`, or
# from a tap that copies it. scripts/release writes the url and sha256 of each release's source tarball.
class Memhunt < Formula
  desc "Memory investigations for iOS and Apple-platform apps, from the artifacts a team has"
  homepage "https://github.com/memhunt/memhunt"
  url "https://github.com/memhunt/memhunt/archive/refs/tags/v0.2.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/memhunt/memhunt.git", branch: "main"

  depends_on "pkgconf" => :build
  depends_on "libyaml"
  uses_from_macos "curl"
  uses_from_macos "zlib"

  on_macos do
    depends_on xcode: ["16.0", :build]
  end

  on_linux do
    depends_on "openssl@3"
  end

  def install
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "memhunt"
    bin.install ".build/release/memhunt"
  end

  test do
    assert_match "memhunt #{version}", shell_output("#{bin}/memhunt --version")
    # A hunt over an empty folder cannot be done as asked: exit 2, with the reason on stderr.
    shell_output("#{bin}/memhunt run #{testpath} 2>&1", 2)
  end
end
