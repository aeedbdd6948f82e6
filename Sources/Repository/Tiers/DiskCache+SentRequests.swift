import ContentLoadingSupport
import Foundation

/// The last request of each pending mutation, as the outboxes over this connection note it
/// before it goes, kept until the mutation leaves the outbox: the value it sent (its element
/// edited: ``MutationContext/edited``), the element's kept server value when it went, and its
/// context.
///
/// A server that stores an edit hands out the value sent to any fetch made after it, and its
/// answer may come later or not at all (lost on its way back). Taken as the element's server
/// value, that value holds the mutation already: shown with the mutation applied again, an
/// append would be shown twice until the answer landed; an answer without a value
/// (``MutationResult/done``) would make the mutation applied twice the server value; and sent
/// again after a lost answer, the request would carry the mutation applied twice, under the
/// key of the first (which a server that checks a key's payload refuses). So a server value
/// that is the value the mutation's last request sent holds it: the mutations after it are
/// shown over it, a "done" leaves it, and the next request sends it as it is. A server value
/// that is another (the request has not landed, or someone else changed the element) gets the
/// mutation applied, as any fetched value does. And while nothing new is learned of the
/// element (its kept server value and entity tag are the ones the last request went with: a
/// value learned again since, the same with another tag or none, is new), a mutation sent
/// again is that request again: the same value, entity tag and key (after a conflict the
/// client won, the request made over the server's value, not one made again over the copy
/// kept).
///
/// NB: in memory, on this connection: a fetch written through another connection (another
/// process) does not know what this one sent, nor does the next launch.
extension DiskCache {
    /// The last request of a pending mutation.
    struct SentRequest: Sendable {
        let elementType: String
        /// The value it sent, encoded as a row is; `nil`: the store held no value of the
        /// element (nothing fetched is taken to hold it).
        let value: Data?
        /// The element's kept server value when it went, with its entity tag: the same value
        /// learned again with another tag (or none) is something new learned.
        let keptBase: ElementBase?
        /// Whether it was made over ``keptBase`` (the mutation applied to it), not over a
        /// conflict's server value.
        let isOverKeptBase: Bool
        /// Its `MutationContext`, for the outbox of the element type to send again.
        let context: any Sendable
    }

    /// Notes that `request` of `mutation` goes.
    nonisolated func noteSending(_ mutation: StoredMutation, _ request: SentRequest) {
        sentRequests.withLock { $0[mutation.sequence] = request }
    }

    /// The last request of `mutation` noted; `nil` when none went from this connection.
    nonisolated func lastRequest(of mutation: StoredMutation) -> SentRequest? {
        sentRequests.withLock { $0[mutation.sequence] }
    }

    /// Forgets what the mutations with `sequences` sent: they left the outbox.
    nonisolated func forgetSentRequests(of sequences: some Sequence<Int>) {
        sentRequests.withLock { sent in for sequence in sequences { sent[sequence] = nil } }
    }

    /// Forgets what the mutations of elements of `type` sent: the outbox of `type` was emptied.
    nonisolated func forgetSentRequests(ofType type: String) {
        sentRequests.withLock { sent in sent = sent.filter { $0.value.elementType != type } }
    }

    /// Whether `server`, an element's server value, is what the last request of `mutation`
    /// sent: then it holds the mutation already.
    nonisolated func holds(_ mutation: StoredMutation, _ server: Data?) -> Bool {
        guard let server else { return false }
        return lastRequest(of: mutation)?.value == server
    }

    /// The mutations of `pending` (an element's, in order) to show over `server`: every one,
    /// less the first when ``holds(_:_:)`` says `server` holds it (the first is the one sent).
    nonisolated func mutationsToShow(over server: Data, _ pending: [StoredMutation]) -> ArraySlice<StoredMutation> {
        guard let first = pending.first, holds(first, server) else { return pending[...] }
        return pending.dropFirst()
    }
}
