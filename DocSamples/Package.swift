// swift-tools-version: 6.2
// The README's and the DocC articles' Swift samples, compiled against the kit's public API as an
// app compiles them (this package depends on the checkout by path), and run where they have an
// effect. `bash .ci/doc-samples` checks that each sample here is the one the docs show.
import PackageDescription

// NB: a package depended on by path is named after its folder (in CI, a clone's folder).
let kit = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "ContentLoadingKit")

let products: [Target.Dependency] = [
    .product(name: "ContentLoading", package: kit),
    .product(name: "ContentLoadingNetworking", package: kit),
    .product(name: "ContentLoadingRepository", package: kit),
    .product(name: "SellerContacts", package: kit),
]

let package = Package(
    name: "DocSamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "Samples", dependencies: products),
        .testTarget(
            name: "SamplesTests",
            dependencies: ["Samples", "MainActorByDefaultApp", .product(name: "ContentLoadingTesting", package: kit)]
                + products,
            resources: [.copy("Fixtures"), .copy("contacts.json")]),
        // An app with Xcode 26's defaults for new projects: every declaration is main-actor
        // isolated unless it says otherwise, and nonisolated async functions run on the
        // caller's actor. The README's "Main actor by default" section is what it writes.
        .target(
            name: "MainActorByDefaultApp",
            dependencies: products,
            swiftSettings: [
                .defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
