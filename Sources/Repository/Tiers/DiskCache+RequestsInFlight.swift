import ContentLoadingSupport
import Foundation

/// The mutations whose requests are in flight, each with the value it sends (its element
/// edited: ``MutationContext/edited``), as the outboxes over this connection mark them.
///
/// A server that stores the edit before its answer comes back hands out the value sent to any
/// fetch made meanwhile. Taken as the element's server value, that value holds the mutation
/// already: shown with the mutation applied again, an append would be shown twice until the
/// answer landed, and an answer without a value (``MutationResult/done``) would make the
/// mutation applied twice the server value. So while the request is in flight, a server value
/// that is the value it sends is shown with the mutations after it only, and is the server
/// value its "done" leaves. A server value that is another (the request has not landed, or
/// someone else changed the element) gets the mutation applied, as any fetched value does.
extension DiskCache {
    /// Marks mutation `sequence` in flight, its request sending `edited` (encoded as a row is;
    /// `nil`: the store holds no value of the element, and nothing fetched is taken as its).
    nonisolated func markInFlight(_ sequence: Int, sending edited: Data?) {
        requestsInFlight.withLock { $0[sequence] = edited }
    }

    /// Marks mutation `sequence` no longer in flight: its answer is settled, or it failed.
    nonisolated func markLanded(_ sequence: Int) {
        requestsInFlight.withLock { _ = $0.removeValue(forKey: sequence) }
    }

    /// Whether `server`, an element's server value, is what the request of `mutation`, in
    /// flight, sends: the server stored the edit, so the value holds the mutation already.
    func holds(_ mutation: StoredMutation, _ server: Data?) -> Bool {
        guard let server else { return false }
        return requestsInFlight.withLock { $0[mutation.sequence] } == server
    }

    /// The mutations of `pending` (an element's, in order) to show over `server`: every one,
    /// less the first when ``holds(_:_:)`` says `server` holds it.
    func mutationsToShow(over server: Data, _ pending: [StoredMutation]) -> ArraySlice<StoredMutation> {
        guard let first = pending.first, holds(first, server) else { return pending[...] }
        return pending.dropFirst()
    }
}
