import ContentLoadingSupport
import Foundation

/// Reads stored mutations back as the outbox's mutation types, and keeps what it read: a
/// mutation's stored form never changes (its sequence is never used again), and every write of
/// an element with pending mutations applies them all again.
final class MutationDecoder<Element: Identifiable & Codable & Sendable, Environment: Sendable>: Sendable
where Element.ID: CacheKey {
    /// The mutation types, by stored name.
    let types: [String: any Mutation<Element, Environment>.Type]
    private let read = Locked<[Int: any Mutation<Element, Environment>]>([:])
    /// The most mutations kept; past it the kept ones are dropped and read again when needed.
    private static var limit: Int { 4_096 }

    init(types: [any Mutation<Element, Environment>.Type]) {
        self.types = Dictionary(types.map { ($0.mutationName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Why a mutation of `type` cannot be stored so that it reads back as itself, or `nil`
    /// when it can: its type is not one the outbox was given, or another type given has its
    /// stored name (the first given is the one read back).
    func problem(storing type: any Mutation<Element, Environment>.Type) -> UnreadableMutationType? {
        let name = type.mutationName
        guard let registered = types[name] else {
            return UnreadableMutationType(type: type, name: name, sharedWith: nil)
        }
        guard registered != type else { return nil }
        return UnreadableMutationType(type: type, name: name, sharedWith: registered)
    }

    /// The mutation `stored` holds, decoded as the type its name gives.
    ///
    /// - Throws: `UnknownMutation` when no type has its name; a `DecodingError` when its
    ///   payload does not decode as that type.
    func decoded(_ stored: DiskCache.StoredMutation) throws -> any Mutation<Element, Environment> {
        if let mutation = read.withLock({ $0[stored.sequence] }) { return mutation }
        guard let type = types[stored.name] else { throw UnknownMutation(name: stored.name) }
        let mutation = try JSONDecoder().decode(type, from: stored.payload)
        read.withLock { read in
            if read.count >= Self.limit { read.removeAll() }
            read[stored.sequence] = mutation
        }
        return mutation
    }

    /// `server` (an element's stored server value) with `pending` applied in order; a mutation
    /// that does not decode is left out (the queue sets it aside).
    func applying(_ pending: [DiskCache.StoredMutation], to server: Data) throws -> Data {
        var element = try JSONDecoder().decode(Element.self, from: server)
        for stored in pending {
            guard let mutation = try? decoded(stored) else { continue }
            mutation.apply(to: &element)
        }
        return try ElementStore<Element>.encoded(element)
    }
}
