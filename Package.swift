// swift-tools-version:6.0
// Targets are layered; each arrow in the README's "Modules" section points one way only.
// Sorted within each section, one dependency per line.
import PackageDescription

let package = Package(
    name: "memhunt",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "memhunt", targets: ["memhunt"]),
        .library(name: "MemhuntCore", targets: ["MemhuntCore"]),
        .library(name: "MemhuntFormats", targets: ["MemhuntFormats"]),
        .library(name: "MemhuntKit", targets: ["MemhuntCLI", "MemhuntChecks", "MemhuntReports"]),
    ],
    targets: [
        // MARK: - C libraries (system)
        // libcrypto's SHA-256 (Linux; Darwin uses CommonCrypto): 1.5-1.9 GB/s against 282 MB/s in Swift.
        .systemLibrary(
            name: "CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),

        // MARK: - Leaf: utilities with nothing memhunt-specific (sha256 over the platform's crypto library)
        .target(
            name: "MemhuntBasics",
            dependencies: [
                .target(name: "CLibcrypto", condition: .when(platforms: [.linux]))
            ]
        ),
        .testTarget(
            name: "MemhuntBasicsTests",
            dependencies: ["MemhuntBasics"]
        ),

        // MARK: - HTTP: streaming downloads with retries (URLSession; libcurl on Linux)
        .target(
            name: "MemhuntHTTP",
            dependencies: ["MemhuntBasics"]
        ),
        .testTarget(
            name: "MemhuntHTTPTests",
            dependencies: [
                "MemhuntHTTP",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - Leaf: pure byte parsers of artifact formats (no I/O)
        .target(name: "MemhuntFormats"),
        .testTarget(
            name: "MemhuntFormatsTests",
            dependencies: [
                "MemhuntFormats",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - YAML (the only importer of CYaml)
        .target(
            name: "MemhuntYAML",
            dependencies: ["CYaml"]
        ),

        // MARK: - Core: playbook, artifact store, Check protocol, step engine
        .target(
            name: "MemhuntCore",
            dependencies: [
                "MemhuntBasics",
                "MemhuntFormats",
                "MemhuntHTTP",
                "MemhuntYAML",
            ]
        ),
        .testTarget(
            name: "MemhuntCoreTests",
            dependencies: [
                "MemhuntCore",
                "MemhuntChecks",
                "MemhuntTestSupport",
                "MemhuntYAML",
            ]
        ),

        // MARK: - Built-in checks
        .target(
            name: "MemhuntChecks",
            dependencies: [
                "MemhuntCore",
                "MemhuntFormats",
            ]
        ),
        .testTarget(
            name: "MemhuntChecksTests",
            dependencies: [
                "MemhuntChecks",
                "MemhuntCore",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - Report renderers (pure functions of the run result)
        .target(
            name: "MemhuntReports",
            dependencies: ["MemhuntCore"]
        ),

        // MARK: - CLI library and the three-line executable
        .target(
            name: "MemhuntCLI",
            dependencies: [
                "MemhuntChecks",
                "MemhuntCore",
                "MemhuntHTTP",
                "MemhuntReports",
            ]
        ),
        .executableTarget(
            name: "memhunt",
            dependencies: ["MemhuntCLI"]
        ),
        .testTarget(
            name: "MemhuntCLITests",
            dependencies: [
                "MemhuntBasics",
                "MemhuntCLI",
                "MemhuntHTTP",
                "MemhuntReports",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - Test support (fixtures, temp dirs, binary runner)
        .target(
            name: "MemhuntTestSupport",
            dependencies: [
                "MemhuntChecks",
                "MemhuntCore",
            ],
            path: "Tests/MemhuntTestSupport"
        ),
    ],
    swiftLanguageModes: [.v6]
)
