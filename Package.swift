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
        .plugin(name: "MemhuntCommand", targets: ["MemhuntCommand"]),
    ],
    targets: [
        // MARK: - C libraries (system)
        // The C allocator's policy for the process: large blocks go back to the system when freed (glibc).
        .target(name: "CAllocator"),
        // libcrypto's SHA-256 (Linux; Darwin uses CommonCrypto): 1.5-1.9 GB/s against 282 MB/s in Swift.
        .systemLibrary(
            name: "CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libcurl, loaded with dlopen by the first HTTPS or proxied request (Linux): not linked, so that a
        // run that never makes one never loads it and its 29 libraries (~4.5 ms of every start).
        .target(name: "CCurl"),
        // Read-only file mappings that survive the file's truncation (a SIGBUS handler maps zeros over the
        // missing page): change logs are scanned and hashed from the page cache, without copying them.
        .target(name: "CMappedFile"),
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // zlib's inflate, for sysdiagnose archives (.tar.gz) read as a stream; in the macOS SDK, zlib1g-dev on Debian.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
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
            dependencies: [
                "MemhuntBasics",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - HTTP: streaming downloads with retries (own sockets for http; for https, libcurl on Linux and
        // URLSession elsewhere)
        .target(
            name: "MemhuntHTTP",
            dependencies: [
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                "MemhuntBasics",
            ]
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

        // MARK: - Record snapshots: per-record numbers computed once (peak, rank, resident, exits)
        .target(
            name: "MemhuntSnapshots",
            dependencies: ["MemhuntFormats"]
        ),
        .testTarget(
            name: "MemhuntSnapshotsTests",
            dependencies: [
                "MemhuntFormats",
                "MemhuntSnapshots",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - YAML (the only importer of CYaml)
        .target(
            name: "MemhuntYAML",
            dependencies: ["CYaml"]
        ),
        .testTarget(
            name: "MemhuntYAMLTests",
            dependencies: ["MemhuntYAML"]
        ),

        // MARK: - Core: playbook, Check protocol, step engine (no I/O: bytes and text in, results out)
        .target(
            name: "MemhuntCore",
            dependencies: [
                "MemhuntBasics",
                "MemhuntFormats",
                "MemhuntYAML",
            ]
        ),
        .testTarget(
            name: "MemhuntCoreTests",
            dependencies: [
                "MemhuntBasics",
                "MemhuntCore",
                "MemhuntChecks",
                "MemhuntTestSupport",
                "MemhuntYAML",
            ]
        ),

        // MARK: - Artifacts: the I/O between HTTP/Formats and the engine (walks, manifests, downloads, run cache)
        .target(
            name: "MemhuntArtifacts",
            dependencies: [
                "CMappedFile",
                "CZlib",
                "MemhuntBasics",
                "MemhuntCore",
                "MemhuntFormats",
                "MemhuntHTTP",
                "MemhuntYAML",
            ]
        ),
        .testTarget(
            name: "MemhuntArtifactsTests",
            dependencies: [
                "CMappedFile",
                "MemhuntArtifacts",
                "MemhuntBasics",
                "MemhuntChecks",
                "MemhuntCore",
                "MemhuntFormats",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - Built-in checks
        .target(
            name: "MemhuntChecks",
            dependencies: [
                "MemhuntCore",
                "MemhuntFormats",
                "MemhuntSnapshots",
            ]
        ),
        .testTarget(
            name: "MemhuntChecksTests",
            dependencies: [
                "MemhuntArtifacts",
                "MemhuntChecks",
                "MemhuntCore",
                "MemhuntTestSupport",
            ]
        ),

        // MARK: - Report renderers (pure functions of the run result)
        .target(
            name: "MemhuntReports",
            dependencies: [
                "MemhuntCore",
                "MemhuntFormats",
                "MemhuntSnapshots",
            ]
        ),
        .testTarget(
            name: "MemhuntReportsTests",
            dependencies: [
                "MemhuntCore",
                "MemhuntReports",
                "MemhuntTestSupport",
            ],
            // Read by path from the checkout, not resources.
            exclude: ["Golden"]
        ),

        // MARK: - Trackers: findings attached to bug trackers over the HTTP client
        .target(
            name: "MemhuntTrackers",
            dependencies: [
                "MemhuntBasics",
                "MemhuntCore",
                "MemhuntHTTP",
                "MemhuntReports",
            ]
        ),
        .testTarget(
            name: "MemhuntTrackersTests",
            dependencies: [
                "MemhuntBasics",
                "MemhuntHTTP",
                "MemhuntReports",
                "MemhuntTestSupport",
                "MemhuntTrackers",
            ]
        ),

        // MARK: - CLI library and the three-line executable
        .target(
            name: "MemhuntCLI",
            dependencies: [
                "MemhuntArtifacts",
                "MemhuntBasics",
                "MemhuntChecks",
                "MemhuntCore",
                "MemhuntFormats",
                "MemhuntHTTP",
                "MemhuntReports",
                "MemhuntSnapshots",
                "MemhuntTrackers",
            ]
        ),
        .executableTarget(
            name: "memhunt",
            dependencies: [
                "CAllocator",
                "MemhuntCLI",
            ]
        ),
        // `swift package memhunt …` from an app's package that depends on this one.
        .plugin(
            name: "MemhuntCommand",
            capability: .command(
                intent: .custom(verb: "memhunt", description: "Run a memhunt memory hunt in this package's folder")
            ),
            dependencies: ["memhunt"]
        ),
        .testTarget(
            name: "MemhuntCLITests",
            dependencies: [
                "MemhuntArtifacts",
                "MemhuntBasics",
                "MemhuntChecks",
                "MemhuntCLI",
                "MemhuntHTTP",
                "MemhuntReports",
                "MemhuntSnapshots",
                "MemhuntTestSupport",
                "MemhuntTrackers",
            ],
            // Read by path from the checkout (TriageTests), not a resource.
            exclude: ["Golden"]
        ),

        // MARK: - Test support (fixtures, temp dirs, binary runner)
        .target(
            name: "MemhuntTestSupport",
            dependencies: [
                "MemhuntArtifacts",
                "MemhuntChecks",
                "MemhuntCore",
            ],
            path: "Tests/MemhuntTestSupport"
        ),
    ],
    swiftLanguageModes: [.v6]
)
