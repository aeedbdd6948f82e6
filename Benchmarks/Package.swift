// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for ContentLoadingKit: a package of their own, so the kit keeps no dependencies.
let package = Package(
    name: "ContentLoadingKitBenchmarks",
    // NB: macOS 15: the scenarios read streams as a main-actor reader does (`next(isolation:)`).
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ContentLoadingKit", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // Raw sqlite3 (declared in shim.h, linked to libsqlite3.so.0: no headers needed), for the
        // baselines of the SQLite scenarios (SQLite3 on Apple platforms).
        .systemLibrary(name: "CSQLiteRaw"),
        .target(
            name: "Scenarios",
            dependencies: [
                .product(name: "ContentLoading", package: "ContentLoadingKit"),
                .product(name: "ContentLoadingNetworking", package: "ContentLoadingKit"),
                .product(name: "ContentLoadingRepository", package: "ContentLoadingKit"),
                .product(name: "SellerContacts", package: "ContentLoadingKit"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .target(name: "CSQLiteRaw", condition: .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(
            name: "KitBenchmarks",
            dependencies: ["Scenarios", .product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/KitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(name: "ratio-report", dependencies: ["Scenarios"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}
