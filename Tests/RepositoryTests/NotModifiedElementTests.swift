import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A 304 for a list or a detail over an element store confirms what the file holds: it never
/// writes the value it compared over an element saved since, even when that save has not
/// reached this repository's memory (another process made it, as here with a second store over
/// the file).
@Suite struct NotModifiedElementTests {
    typealias Contact = ElementStoreTests.Contact

    static let tag = Validators(entityTag: "\"v1\"")
    let path: String
    init() throws { path = try temporaryCachePath() }

    /// The server's answer to validators: `value` with ``tag``, then "not modified".
    static func answer<Value>(_ value: Value, to validators: Validators) -> FetchResult<Value> {
        validators.entityTag == tag.entityTag ? .notModified(tag) : .modified(value, tag)
    }

    @Test func aDetailConfirmedByA304KeepsTheElementSavedSince() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let details = KeyedRepository<Int, Contact>(elements: store) { id, validators in
            Self.answer(Contact(id: id, phone: "server"), to: validators)
        }
        try await details.refresh(1)
        let saved = Contact(id: 1, phone: "saved elsewhere")
        try await ElementStore<Contact>(disk: try DiskCache(.file(path: path))).save(saved)

        #expect(try await details.refresh(1) == .notModified)
        #expect(try await store.element(id: 1) == saved, "the file keeps the save")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value == saved)
    }

    @Test func aListConfirmedByA304AfterItsRowWentKeepsTheElementSavedSince() async throws {
        let server = [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "three")]
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _, validators in
            Self.answer(server, to: validators)
        }
        try await lists.refresh("all")
        // NB: elsewhere, the list is removed from the file and one of its elements saved.
        let other = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let otherLists = KeyedRepository<String, [Contact]>(elements: other) { _, _ in .modified([], .none) }
        try await otherLists.remove("all")
        let saved = Contact(id: 2, phone: "saved elsewhere")
        try await other.save(saved)

        #expect(try await lists.refresh("all") == .notModified)
        let shown = [server[0], saved, server[2]]
        #expect(try await store.element(id: 2) == saved, "the file keeps the save")
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value == shown)
        let relaunched = KeyedRepository<String, [Contact]>(
            elements: ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        ) { _, _ in .modified([], .none) }
        #expect(try await relaunched.value(for: "all", policy: .returnCacheDontLoad)?.value == shown)
    }
}
