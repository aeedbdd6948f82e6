import ContentLoading
import ContentLoadingSupport
import Foundation

/// A server of contacts in pages, for persisted paging tests: keyset cursors (the next page
/// after the contact with id 5 is `"5"`, the page before it `"<5"`), each page has an entity tag made from its contents, and the server can
/// go offline, hold a request until the test releases it, and change its contacts.
final class PagedCatalog: Sendable {
    typealias Contact = ElementStoreTests.Contact

    struct Offline: Error {}

    /// A request held until ``release()``: ``requested()`` returns once it arrived.
    final class Gate: Sendable {
        let arrived = SettleSignal<Void>()
        let released = SettleSignal<Void>()
        func requested() async { await arrived.wait() }
        func release() { released.resolve(()) }
    }

    private struct State {
        var contacts: [Contact]
        var isOnline = true
        var isNoStore = false
        var requests: [String] = []
        var notModified = 0
        var gate: Gate?
        var lastNewID = 0
    }

    let pageSize: Int
    private let state: Locked<State>

    init(count: Int, pageSize: Int) {
        self.pageSize = pageSize
        state = Locked(State(contacts: (0..<count).map { Contact(id: $0, phone: "\($0)") }))
    }

    var isOnline: Bool {
        get { state.withLock { $0.isOnline } }
        set { state.withLock { $0.isOnline = newValue } }
    }
    /// Whether pages are answered with `Cache-Control: no-store`.
    var isNoStore: Bool {
        get { state.withLock { $0.isNoStore } }
        set { state.withLock { $0.isNoStore = newValue } }
    }
    /// The cursor of every request answered, `-` for the initial page.
    var requests: [String] { state.withLock { $0.requests } }
    /// How many requests were answered "not modified".
    var notModified: Int { state.withLock { $0.notModified } }

    func insert(_ contact: Contact, at index: Int) { state.withLock { $0.contacts.insert(contact, at: index) } }

    /// Adds a contact with an id no contact has had, at `index`; returns its id.
    @discardableResult
    func insertNew(at index: Int, phone: String) -> Int {
        state.withLock { state in
            state.lastNewID = max(state.lastNewID, state.contacts.map(\.id).max() ?? 0) + 1
            state.contacts.insert(Contact(id: state.lastNewID, phone: phone), at: min(index, state.contacts.count))
            return state.lastNewID
        }
    }

    /// Changes contact `id`'s phone on the server.
    func update(_ id: Int, phone: String) {
        state.withLock { state in
            if let index = state.contacts.firstIndex(where: { $0.id == id }) { state.contacts[index].phone = phone }
        }
    }

    /// Deletes contact `id` on the server.
    func delete(_ id: Int) { state.withLock { $0.contacts.removeAll { $0.id == id } } }

    /// The contacts the server holds now.
    var contacts: [Contact] { state.withLock { $0.contacts } }

    /// Holds the next request until the gate is released.
    func holdNextRequest() -> Gate {
        let gate = Gate()
        state.withLock { $0.gate = gate }
        return gate
    }

    /// The page at `cursor` (`nil`: the first, or, `openingInTheMiddle`, the one from the middle
    /// contact on), or "not modified" when `validators` carry its entity tag.
    func page(_ cursor: String?, validators: Validators, openingInTheMiddle: Bool = false) async throws
        -> FetchResult<Page<Contact, String>>
    {
        let gate = state.withLock { state in
            defer { state.gate = nil }
            return state.gate
        }
        if let gate {
            gate.arrived.resolve(())
            await gate.released.wait()
        }
        return try state.withLock { state in
            guard state.isOnline else { throw Offline() }
            state.requests.append(cursor ?? "-")
            let contacts = state.contacts
            let range: Range<Int>
            switch cursor {
            case nil where openingInTheMiddle:
                let start = contacts.count / 2
                range = start..<min(start + pageSize, contacts.count)
            case nil: range = 0..<min(pageSize, contacts.count)
            case let cursor? where cursor.hasPrefix("<"):
                let end = contacts.firstIndex { "<\($0.id)" == cursor } ?? 0
                range = max(0, end - pageSize)..<end
            case let cursor?:
                let start = (contacts.firstIndex { "\($0.id)" == cursor } ?? contacts.count - 1) + 1
                range = start..<min(start + pageSize, contacts.count)
            }
            let items = Array(contacts[range])
            let page = Page(
                items: items, previousCursor: range.lowerBound > 0 ? items.first.map { "<\($0.id)" } : nil,
                nextCursor: range.upperBound < contacts.count ? items.last.map { "\($0.id)" } : nil)
            let tag = items.map { "\($0.id):\($0.phone)" }.joined(separator: ",") + "|\(page.nextCursor ?? "")"
            guard validators.entityTag != tag else {
                state.notModified += 1
                return .notModified(Validators(entityTag: tag))
            }
            let freshness = state.isNoStore ? Freshness(isNoStore: true) : nil
            return .modified(page, Validators(entityTag: tag, freshness: freshness))
        }
    }

    /// The page from offset `offset` (`nil`: 0), for a source whose cursors are offsets: the page
    /// after it from the offset after its last contact, whatever contacts were added since.
    func page(offset: Int?) throws -> Page<Contact, Int> {
        try state.withLock { state in
            guard state.isOnline else { throw Offline() }
            state.requests.append("@\(offset ?? 0)")
            let start = min(offset ?? 0, state.contacts.count)
            let end = min(start + pageSize, state.contacts.count)
            return Page(
                items: Array(state.contacts[start..<end]), previousCursor: start > 0 ? max(0, start - pageSize) : nil,
                nextCursor: end < state.contacts.count ? end : nil)
        }
    }

    /// The first `count` contacts, or "not modified" when `validators` carry their entity tag.
    func first(_ count: Int, validators: Validators) -> FetchResult<[Contact]> {
        answer(validators) { Array($0.prefix(count)) }
    }

    /// Contact `id`, or "not modified" when `validators` carry its entity tag.
    func contact(_ id: Int, validators: Validators) throws -> FetchResult<Contact> {
        guard let contact = contacts.first(where: { $0.id == id }) else { throw Offline() }
        return answer(validators) { _ in contact }
    }

    /// `value` of the contacts, with an entity tag made from its JSON.
    private func answer<Value: Encodable>(_ validators: Validators, _ value: ([Contact]) -> Value) -> FetchResult<Value>
    {
        state.withLock { state in
            let value = value(state.contacts)
            let tag = String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
            guard validators.entityTag != tag else {
                state.notModified += 1
                return .notModified(Validators(entityTag: tag))
            }
            return .modified(value, Validators(entityTag: tag))
        }
    }
}
