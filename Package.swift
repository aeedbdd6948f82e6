// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ContentLoadingKit",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "ContentLoading", targets: ["ContentLoading"]),
        .library(name: "ContentLoadingTesting", targets: ["ContentLoadingTesting"]),
        .library(name: "ContentLoadingNetworking", targets: ["ContentLoadingNetworking"]),
        .library(name: "ContentLoadingRepository", targets: ["ContentLoadingRepository"]),
        // The worked example, as a library so the benchmarks (and readers) can use it.
        .library(name: "SellerContacts", targets: ["SellerContacts"]),
    ],
    targets: [
        // Package-internal plumbing shared by the layers (locks, broadcasts, signals); not a product.
        .target(name: "ContentLoadingSupport", path: "Sources/Support"),
        .target(name: "ContentLoading", dependencies: ["ContentLoadingSupport"]),
        .target(name: "ContentLoadingTesting", dependencies: ["ContentLoading", "ContentLoadingSupport"]),
        .target(
            name: "ContentLoadingNetworking", dependencies: ["ContentLoading", "ContentLoadingSupport"],
            path: "Sources/Networking"),
        // The system SQLite: on Linux this module, which declares the functions the kit uses and
        // binds them from libsqlite3.so.0 at run time (no headers, no -dev package); `SQLite3`
        // on Apple platforms.
        .target(name: "CSQLite", path: "Sources/CSQLite", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "ContentLoadingRepository",
            dependencies: [
                "ContentLoading", "ContentLoadingSupport",
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
            ],
            path: "Sources/Repository"
        ),

        // The worked example and the executables that drive it (built, not shipped as products).
        .target(
            name: "SellerContacts",
            dependencies: [
                "ContentLoading", "ContentLoadingNetworking", "ContentLoadingRepository", "ContentLoadingSupport",
            ],
            resources: [.copy("Resources/seller-contacts.json")]
        ),
        .target(name: "ExampleSupport", dependencies: ["ContentLoadingSupport"], path: "Examples/ExampleSupport"),
        .target(
            name: "SellerContactsCommand",
            dependencies: [
                "ContentLoading", "ContentLoadingNetworking", "SellerContacts", "ContentLoadingRepository",
                "ContentLoadingSupport", "ExampleSupport",
            ],
            path: "Examples/SellerContactsCommand"
        ),
        .executableTarget(
            name: "seller-contacts", dependencies: ["SellerContactsCommand", "ExampleSupport"],
            path: "Examples/seller-contacts"),
        .target(
            name: "PagingDemoCommand",
            dependencies: [
                "ContentLoading", "ContentLoadingNetworking", "ContentLoadingRepository", "ContentLoadingSupport",
                "ExampleSupport",
            ],
            path: "Examples/PagingDemoCommand",
            resources: [.copy("Resources/catalog.json")]
        ),
        .executableTarget(
            name: "paging-demo", dependencies: ["PagingDemoCommand", "ExampleSupport"], path: "Examples/paging-demo"),

        // Test-only support: the fixture HTTP server (a real python3 process on 127.0.0.1).
        .target(name: "KitTestSupport", path: "Tests/Support", resources: [.copy("Resources/fixture_server.py")]),
        // A child process for the stream deadlock test: run with a time limit, killed if it hangs.
        .executableTarget(
            name: "stream-stress",
            dependencies: ["ContentLoading", "ContentLoadingRepository", "ContentLoadingSupport"],
            path: "Tests/StreamStress"),
        // A child process that cancels loads at random moments (FoundationNetworking trapped on
        // some of them).
        .executableTarget(
            name: "cancel-stress", dependencies: ["ContentLoadingNetworking", "ContentLoadingSupport"],
            path: "Tests/CancelStress"),
        // A child process whose main actor runs on an executor of its own (not the main queue).
        .executableTarget(
            name: "custom-main-executor", dependencies: ["ContentLoading", "ContentLoadingSupport"],
            path: "Tests/CustomMainExecutor"),
        .testTarget(
            name: "ContentLoadingTests",
            dependencies: [
                "ContentLoading", "ContentLoadingTesting", "ContentLoadingSupport", "KitTestSupport", "stream-stress",
                "custom-main-executor",
            ]),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "ContentLoadingNetworking", "ContentLoadingRepository", "ContentLoadingSupport",
                "ContentLoadingTesting",
                "KitTestSupport", "cancel-stress",
            ]),
        // A child process for the crash-safety test: killed in the middle of a large write.
        .executableTarget(
            name: "sqlite-crash-writer",
            dependencies: ["SellerContacts", "ContentLoading", "ContentLoadingNetworking", "ContentLoadingRepository"],
            path: "Tests/CrashWriter"),
        .testTarget(
            name: "RepositoryTests",
            dependencies: [
                "ContentLoadingRepository", "ContentLoading", "ContentLoadingTesting", "ContentLoadingSupport",
                "KitTestSupport",
            ]
        ),
        .testTarget(
            name: "SellerContactsTests",
            dependencies: [
                "SellerContacts", "SellerContactsCommand", "PagingDemoCommand", "ExampleSupport",
                "ContentLoadingTesting", "ContentLoadingNetworking",
                "KitTestSupport", "ContentLoadingRepository", "sqlite-crash-writer", "seller-contacts", "paging-demo",
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)

// NB: one place sets the language mode and the strictness every target shares.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}
