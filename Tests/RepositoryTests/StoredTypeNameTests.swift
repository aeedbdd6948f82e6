import ContentLoading
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// A model declared `private`, as a screen's file often declares it.
private struct Hidden: Identifiable, Codable, Sendable, Equatable {
    let id: Int
    var name: String
}

/// A mutation declared `private`.
private struct Rename: Mutation {
    let id: Int
    let name: String
    var elementID: Int { id }
    func apply(to element: inout Hidden) { element.name = name }
    func send(using environment: Void, context: MutationContext<Hidden>) async throws -> MutationResult<Hidden> {
        throw CancellationError()
    }
}

/// What the file stores a type's values under names it without the address the runtime prints
/// for a `private` or local type, which changes at every launch: with it, nothing stored for
/// such a type was found after a relaunch, and an outbox set its pending mutations aside.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct StoredTypeNameTests {
    @Test func aPrivateOrLocalTypeIsNamedWithoutTheRuntimesAddress() {
        struct Local {}
        #expect(String(reflecting: Hidden.self).contains("(unknown context at $"), "what the runtime gives")
        #expect(storedTypeName(Hidden.self) == "RepositoryTests.(private).Hidden")
        #expect(storedTypeName([Hidden].self) == "Swift.Array<RepositoryTests.(private).Hidden>")
        #expect(storedTypeName(Local.self).hasSuffix(".(private).Local"))
        #expect(!storedTypeName(Local.self).contains("$"))
        #expect(storedTypeName([String: Int].self) == "Swift.Dictionary<Swift.String, Swift.Int>", "others as they are")
    }

    @Test func theFileHoldsNoAddressForAPrivateType() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        try await KeyedRepository<String, [Hidden]>(disk: disk) { _ in [] }.save([Hidden(id: 1, name: "a")], for: "all")
        let store = ElementStore<Hidden>(disk: disk)
        try await KeyedRepository<String, [Hidden]>(elements: store) { _ in [Hidden(id: 2, name: "b")] }.refresh("all")
        let outbox = Outbox(store: store, environment: (), mutations: [Rename.self], isPaused: true)
        try await outbox.perform(Rename(id: 2, name: "B"))

        let names =
            try sqlRows("SELECT key FROM content_loading_cache", in: path)
            + sqlRows("SELECT DISTINCT type FROM content_loading_elements", in: path)
            + sqlRows("SELECT name FROM content_loading_outbox", in: path)
        #expect(names.count == 4)
        #expect(names.allSatisfy { $0.contains("(private).") && !$0.contains("$") }, "\(names)")
    }
}
