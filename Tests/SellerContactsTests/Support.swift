import Foundation
import SellerContacts
import Testing

/// The URL of fixture `name`.json, failing the test loudly when it is missing.
func fixtureURL(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
        Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"),
        "fixture \(name).json is missing from the test bundle", sourceLocation: sourceLocation)
}

/// A URL store whose contacts come from one of the test fixtures.
struct TestSellerContactsURLStore: SellerContactsURLStore {
    let sellerContactsURL: URL

    init(fixture name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        sellerContactsURL = try fixtureURL(name, sourceLocation: sourceLocation)
    }
}

/// A directory of its own under the temporary directory.
func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

@MainActor
func loader(fixture name: String) throws -> SellerContactsLoader {
    SellerContactsLoader(apiManager: SellerContactsAPIManager(urlStore: try TestSellerContactsURLStore(fixture: name)))
}
