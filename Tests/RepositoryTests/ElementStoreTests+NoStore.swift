import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import Testing

/// A detail the server answers with `Cache-Control: no-store`: shown, never written, and the
/// copy a detail wrote before dropped; the element's row stays while a list holds it, so no
/// list loses the element, after a relaunch either.
extension ElementStoreTests {
    /// The server's answer to a detail fetch: the contact with `phone` (its entity tag), or
    /// "not modified" when the fetch holds that tag; `no-store` when `noStore` holds.
    struct DetailAnswer: Sendable {
        let noStore = Locked(false)
        let phone = Locked("fetched")

        func fetch(_ id: Int, _ validators: Validators) -> FetchResult<Contact> {
            let phone = phone.withLock { $0 }
            let answered = Validators(
                entityTag: phone, lastModified: nil,
                freshness: noStore.withLock { $0 } ? Freshness(isNoStore: true) : nil)
            if validators.entityTag == phone { return .notModified(answered) }
            return .modified(Contact(id: id, phone: phone), answered)
        }
    }

    func details(over store: ElementStore<Contact>, _ answer: DetailAnswer) -> KeyedRepository<Int, Contact> {
        KeyedRepository(elements: store) { id, validators in answer.fetch(id, validators) }
    }

    /// The phones of list "all" as a launch over the file reads it, offline.
    func allAfterRelaunch() async throws -> [String]? {
        try await launch().1.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone)
    }

    @Test(arguments: [false, true])
    func aDetailNotToBeStoredLeavesEveryListHoldingItsElementWhole(answeredNotModified: Bool) async throws {
        let (store, lists, _) = try launch()
        try await lists.refresh("all")
        let answer = DetailAnswer()
        let details = details(over: store, answer)
        if answeredNotModified { try await details.refresh(1) }

        answer.noStore.withLock { $0 = true }
        // NB: unchanged since the first fetch, the answer is a 304 that says `no-store`.
        if !answeredNotModified { answer.phone.withLock { $0 = "private" } }
        try await details.refresh(1)
        let shown = try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone
        #expect(shown == (answeredNotModified ? "fetched" : "private"), "shown from memory")
        #expect(try rows("SELECT id FROM content_loading_elements ORDER BY id") == ["1", "2", "3"])
        #expect(try rows("SELECT count(*) FROM content_loading_list_members WHERE element_id = '1'") == ["1"])
        #expect(try rows("SELECT count(*) FROM content_loading_elements WHERE value LIKE '%private%'") == ["0"])
        #expect(try rows("SELECT held_by_id FROM content_loading_elements WHERE id = '1'") == ["0"])

        let relaunched = try await allAfterRelaunch()
        #expect(relaunched?.count == 3, "no list lost the element")
        #expect(relaunched?.contains("private") == false, "never written")
    }

    @Test func aDetailNotToBeStoredThatNoListHoldsLeavesNothingInTheFile() async throws {
        let (store, _, _) = try launch()
        let answer = DetailAnswer()
        let details = details(over: store, answer)
        try await details.refresh(9)
        #expect(try rows("SELECT id FROM content_loading_elements") == ["9"])

        answer.noStore.withLock { $0 = true }
        answer.phone.withLock { $0 = "private" }
        try await details.refresh(9)
        #expect(try await details.value(for: 9, policy: .returnCacheDontLoad)?.value.phone == "private")
        #expect(try rows("SELECT count(*) FROM content_loading_elements").first == "0", "the older copy went too")
    }
}
