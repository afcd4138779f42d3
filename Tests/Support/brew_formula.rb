# Runs a Homebrew formula's `test do` block against a built memhunt, without Homebrew: the part of its DSL
# the formula uses, with Homebrew's meanings (version from the url's tag, `shell_output` failing when the
# exit status is not the one expected, `assert_match` as in Minitest), and its `install` recorded (the
# commands it would run, not run). Usage: ruby brew_formula.rb FORMULA BINARY
# Prints what it checked; exit 1 on the first failure.
require "fileutils"
require "tmpdir"

class Formula
  class << self
    attr_reader :fields, :dependencies, :test_block

    def field(name, value = nil, **options)
      (@fields ||= {})[name] = [value, options]
    end

    %i[desc homepage url sha256 head license].each do |name|
      define_method(name) { |value = nil, **options| field(name, value, **options) }
    end

    def depends_on(spec) = (@dependencies ||= []) << spec
    def uses_from_macos(name, **) = (@dependencies ||= []) << name
    def on_macos(&) = nil # this harness runs on Linux: the macOS-only block is not evaluated
    def on_linux(&block) = block.call
    def test(&block) = @test_block = block
  end

  class Failure < StandardError; end

  attr_reader :bin, :testpath, :commands

  def initialize(bin, testpath)
    @bin = bin
    @testpath = testpath
    @commands = []
  end

  # Homebrew's version: the url's `vX.Y.Z` tag.
  def version
    url = self.class.fields.fetch(:url).first
    url[%r{/v?(\d+(?:\.\d+)+)\.tar\.gz\z}, 1] or raise Failure, "no version in the url #{url}"
  end

  def shell_output(command, expected = 0)
    output = `#{command}`
    status = $?.exitstatus
    raise Failure, "`#{command}` exited #{status}, expected #{expected}:\n#{output}" unless status == expected

    output
  end

  def assert_match(pattern, text)
    matched = pattern.is_a?(Regexp) ? pattern.match?(text) : text.include?(pattern)
    raise Failure, "expected #{pattern.inspect} in #{text.inspect}" unless matched
  end

  def system(*command) = @commands << command.join(" ")
end

formula_path, binary = ARGV
load formula_path
klass = Object.const_get(File.basename(formula_path, ".rb").split(/[-_]/).map(&:capitalize).join)
%i[desc homepage url sha256].each do |name|
  abort "formula: no #{name}" unless klass.fields&.key?(name)
end
abort "formula: sha256 is not 64 hex digits" unless klass.fields[:sha256].first.match?(/\A\h{64}\z/)
abort "formula: no test block" unless klass.test_block

Dir.mktmpdir do |root|
  bin = File.join(root, "bin")
  FileUtils.mkdir_p(bin)
  FileUtils.ln_s(File.expand_path(binary), File.join(bin, "memhunt"))
  testpath = File.join(root, "test")
  FileUtils.mkdir_p(testpath)
  formula = klass.new(bin, testpath)
  # `bin.install` in `install` records the file instead of copying it.
  def bin.install(*files) = files
  formula.instance_eval { install }
  puts "install: #{formula.commands.join('; ')}"
  begin
    formula.instance_exec(&klass.test_block)
  rescue Formula::Failure => error
    abort "test block failed: #{error.message}"
  end
  puts "test block passed with version #{formula.version}"
end
