import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation

/// A server of contacts for the outbox tests: it answers `put` with the contact as stored,
/// remembers idempotency keys (a second delivery of a key is a no-op that answers the same,
/// a refusal for a stale `If-Match` too, as the fixture server and real servers do),
/// can be offline (a transient failure) and rejects what it is told to, and can hold a request
/// until the test releases it.
actor ContactServer {
    typealias Contact = ElementStoreTests.Contact

    /// The server cannot be reached: transient.
    struct Unreachable: RetryableError {
        var isTransient: Bool { true }
    }

    /// The contact changed since the copy the edit was made on: a `412` with the current one.
    struct Stale: WriteConflictError {
        let current: Contact
        let entityTag: String
        /// The current contact, its fields in another order than the store's rows (as a server
        /// may send them).
        var writeConflict: WriteConflict? {
            let phone = (try? JSONEncoder().encode(current.phone)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return WriteConflict(body: Data(#"{"phone": \#(phone), "id": \#(current.id)}"#.utf8), entityTag: entityTag)
        }
    }

    /// The server refuses the edit: for good.
    struct Refused: Error, CustomStringConvertible {
        var description: String { "422: the server refused the edit" }
    }

    private var contacts: [Int: Contact]
    /// Each contact's version: its entity tag is `"v" + version`.
    private var versions: [Int: Int] = [:]
    private var isOnline = true
    /// The result of each key applied.
    private var applied: [String: Contact] = [:]
    /// The refusal each key got for a stale `If-Match`: a second delivery gets it again.
    private var refused: [String: Stale] = [:]
    /// Whether a refusal is remembered under its key (as the fixture server does); a server
    /// that does not answers a second delivery as the contact is then.
    private var remembersRefusals = true
    /// Whether a key sent again with another contact than the one stored under it is refused,
    /// as a server that checks a key's payload does (the IETF draft's 422).
    private var checksPayloads = false
    /// The key of every `put` that arrived, in order.
    private(set) var keys: [String] = []
    /// The gate the next `put` (of contact `id`, when given) waits at.
    private let gate = Locked<(gate: PagedCatalog.Gate, id: Int?)?>(nil)
    /// The gate of the next answer held (see ``holdNextAnswer(losingIt:)``), and whether it is lost.
    private let answerGate = Locked<(gate: PagedCatalog.Gate, losingIt: Bool)?>(nil)

    init(_ contacts: [Contact]) {
        self.contacts = Dictionary(uniqueKeysWithValues: contacts.map { ($0.id, $0) })
    }

    func all() throws -> [Contact] {
        guard isOnline else { throw Unreachable() }
        return contacts.values.sorted { $0.id < $1.id }
    }

    /// Every contact and the entity tag of the list of them, made from the contacts' versions:
    /// it changes whenever one of them does.
    func allWithEntityTag() throws -> ([Contact], String) {
        let all = try all()
        return (all, entityTag(ofList: all))
    }

    /// The page of 2 contacts at `cursor` (the index of its first contact; `nil`: the first
    /// page), and its entity tag, made as a list's.
    func page(at cursor: Int?) throws -> (Page<Contact, Int>, entityTag: String) {
        let all = try all()
        let start = cursor ?? 0
        let end = min(start + 2, all.count)
        let items = Array(all[start..<end])
        return (Page(items: items, nextCursor: end < all.count ? end : nil), entityTag(ofList: items))
    }

    private func entityTag(ofList contacts: [Contact]) -> String {
        "list:" + contacts.map { "\($0.id).\(versions[$0.id, default: 1])" }.joined(separator: ",")
    }

    func phone(of id: Int) -> String? { contacts[id]?.phone }
    func setPhone(of id: Int, to phone: String) {
        contacts[id]?.phone = phone
        versions[id, default: 1] += 1
    }

    /// Contact `id` and its entity tag.
    func contact(_ id: Int) throws -> (Contact, String) {
        guard isOnline else { throw Unreachable() }
        guard let contact = contacts[id] else { throw Refused() }
        return (contact, entityTag(of: id))
    }

    func entityTag(of id: Int) -> String { "v\(versions[id, default: 1])" }
    func setOnline(_ online: Bool) { isOnline = online }
    func setRemembersRefusals(_ remembers: Bool) { remembersRefusals = remembers }
    func setChecksPayloads(_ checks: Bool) { checksPayloads = checks }

    /// Holds the next `put` (of contact `id`, when given) until the gate is released.
    nonisolated func holdNextRequest(of id: Int? = nil) -> PagedCatalog.Gate {
        let held = PagedCatalog.Gate()
        gate.withLock { $0 = (held, id) }
        return held
    }

    /// Holds the answer to the next `put` that stores a contact, once it is stored, until the
    /// gate is released; `losingIt`: then throws ``Unreachable`` instead (an answer lost on its
    /// way back, the edit applied).
    nonisolated func holdNextAnswer(losingIt: Bool = false) -> PagedCatalog.Gate {
        let held = PagedCatalog.Gate()
        answerGate.withLock { $0 = (held, losingIt) }
        return held
    }

    /// Resumes `outbox` with its first request held here; returns the gate and the resume
    /// (which returns once the outbox's queue has stopped), once the request waits.
    nonisolated func resumeWithFirstRequestHeld(_ outbox: Outbox<ElementStoreTests.Contact, ContactServer>) async
        -> (PagedCatalog.Gate, Task<Void, Never>)
    {
        let gate = holdNextRequest()
        let resuming = Task { await outbox.resume() }
        await gate.requested()
        return (gate, resuming)
    }

    /// Stores `contact` under idempotency `key` when `ifMatch` (when given) is its entity tag;
    /// throws ``Unreachable`` offline, ``Stale`` for another entity tag, ``Refused`` when
    /// `rejecting` (or nothing is sent).
    func put(_ contact: Contact?, key: String, ifMatch: String? = nil, rejecting: Bool) async throws
        -> MutationResult<Contact>
    {
        if let held = gate.withLock({ gate -> PagedCatalog.Gate? in
            guard let waiting = gate, waiting.id == nil || waiting.id == contact?.id else { return nil }
            gate = nil
            return waiting.gate
        }) {
            held.arrived.resolve(())
            await held.released.wait()
        }
        keys.append(key)
        guard isOnline else { throw Unreachable() }
        if let done = applied[key] {
            guard !checksPayloads || done == contact else { throw Refused() }
            return MutationResult(value: done, entityTag: entityTag(of: done.id))
        }
        if let stale = refused[key] { throw stale }
        guard !rejecting, let contact else { throw Refused() }
        if let ifMatch, let current = contacts[contact.id], ifMatch != entityTag(of: contact.id) {
            let stale = Stale(current: current, entityTag: entityTag(of: contact.id))
            if remembersRefusals { refused[key] = stale }
            throw stale
        }
        contacts[contact.id] = contact
        versions[contact.id, default: 1] += 1
        applied[key] = contact
        if let (held, losingIt) = answerGate.withLock({ gate in
            defer { gate = nil }; return gate
        }) {
            held.arrived.resolve(())
            await held.released.wait()
            if losingIt { throw Unreachable() }
        }
        return MutationResult(value: contact, entityTag: entityTag(of: contact.id))
    }
}

extension ContactServer {
    /// A repository of details of these contacts over `store`, each fetched with its entity tag
    /// ("not modified" when the tag held is the current one), as an app's detail screen is.
    nonisolated func conditionalDetails(over store: ElementStore<Contact>) -> KeyedRepository<Int, Contact> {
        KeyedRepository(elements: store) { id, validators in
            let (contact, tag) = try await self.contact(id)
            guard validators.entityTag != tag else { return .notModified(Validators(entityTag: tag)) }
            return .modified(contact, Validators(entityTag: tag))
        }
    }
}

extension Outbox {
    /// Its events that end a send, ``OutboxEvent/sending`` left out.
    var outcomes:
        AsyncCompactMapSequence<AsyncStream<OutboxEvent<Element, Environment>>, OutboxEvent<Element, Environment>>
    {
        events.compactMap { event in
            if case .sending = event { return nil }
            return event
        }
    }
}

extension AsyncCompactMapSequence.Iterator {
    /// The next outcome after any ``OutboxEvent/willRetry(_:_:)``: a run asked for meanwhile
    /// (the launch's, say) may try again while the server is down, and tell it again.
    mutating func nextAfterRetries<Element, Environment>() async -> OutboxEvent<Element, Environment>?
    where Base == AsyncStream<OutboxEvent<Element, Environment>>, ElementOfResult == OutboxEvent<Element, Environment> {
        var next = await self.next()
        while case .willRetry? = next { next = await self.next() }
        return next
    }
}
