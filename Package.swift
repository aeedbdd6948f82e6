// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ContentLoadingKit",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "ContentLoading", targets: ["ContentLoading"]),
        .library(name: "ContentLoadingTesting", targets: ["ContentLoadingTesting"]),
    ],
    targets: [
        .target(name: "ContentLoading"),
        .target(name: "ContentLoadingTesting", dependencies: ["ContentLoading"]),
        .testTarget(name: "ContentLoadingTests", dependencies: ["ContentLoading", "ContentLoadingTesting"]),
    ]
)

// NB: one place sets the language mode and the strictness every target shares.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}
