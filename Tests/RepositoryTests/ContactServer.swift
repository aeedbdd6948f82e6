import ContentLoading
import ContentLoadingSupport
import Foundation

/// A server of contacts for the outbox tests: it answers `put` with the contact as stored,
/// remembers idempotency keys (a second delivery of a key is a no-op that answers the same),
/// can be offline (a transient failure) and rejects what it is told to, and can hold a request
/// until the test releases it.
actor ContactServer {
    typealias Contact = ElementStoreTests.Contact

    /// The server cannot be reached: transient.
    struct Unreachable: RetryableError {
        var isTransient: Bool { true }
    }

    /// The server refuses the edit: for good.
    struct Refused: Error, CustomStringConvertible {
        var description: String { "422: the server refused the edit" }
    }

    private var contacts: [Int: Contact]
    private var isOnline = true
    /// The result of each key applied.
    private var applied: [String: Contact] = [:]
    /// The key of every `put` that arrived, in order.
    private(set) var keys: [String] = []
    private let gate = Locked<PagedCatalog.Gate?>(nil)

    init(_ contacts: [Contact]) {
        self.contacts = Dictionary(uniqueKeysWithValues: contacts.map { ($0.id, $0) })
    }

    func all() throws -> [Contact] {
        guard isOnline else { throw Unreachable() }
        return contacts.values.sorted { $0.id < $1.id }
    }

    func phone(of id: Int) -> String? { contacts[id]?.phone }
    func setPhone(of id: Int, to phone: String) { contacts[id]?.phone = phone }
    func setOnline(_ online: Bool) { isOnline = online }

    /// Holds the next `put` until the gate is released.
    nonisolated func holdNextRequest() -> PagedCatalog.Gate {
        let held = PagedCatalog.Gate()
        gate.withLock { $0 = held }
        return held
    }

    /// Stores `contact` under idempotency `key`; throws ``Unreachable`` offline, ``Refused``
    /// when `rejecting` (or nothing is sent).
    func put(_ contact: Contact?, key: String, rejecting: Bool) async throws -> Contact {
        if let held = gate.withLock({ gate in
            defer { gate = nil }; return gate
        }) {
            held.arrived.resolve(())
            await held.released.wait()
        }
        keys.append(key)
        guard isOnline else { throw Unreachable() }
        if let done = applied[key] { return done }
        guard !rejecting, let contact else { throw Refused() }
        contacts[contact.id] = contact
        applied[key] = contact
        return contact
    }
}
