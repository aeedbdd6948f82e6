import ContentLoadingSupport
import Foundation

/// What the last request of each pending mutation sent (its element edited:
/// ``MutationContext/edited``), as the outboxes over this connection note it before each
/// request, kept until the mutation leaves the outbox.
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
/// mutation applied, as any fetched value does.
///
/// NB: in memory, on this connection: a fetch written through another connection (another
/// process) does not know what this one sent, nor does the next launch.
extension DiskCache {
    /// What the last request of a pending mutation sent.
    struct SentValue: Sendable {
        let elementType: String
        let value: Data
    }

    /// Notes that a request of `mutation` sends `edited` (encoded as a row is; `nil`: the store
    /// holds no value of the element, and nothing fetched is taken to hold it).
    nonisolated func noteSending(_ mutation: StoredMutation, edited: Data?) {
        sentValues.withLock {
            $0[mutation.sequence] = edited.map { SentValue(elementType: mutation.elementType, value: $0) }
        }
    }

    /// Forgets what the mutations with `sequences` sent: they left the outbox.
    nonisolated func forgetSentValues(of sequences: some Sequence<Int>) {
        sentValues.withLock { sent in for sequence in sequences { sent[sequence] = nil } }
    }

    /// Forgets what the mutations of elements of `type` sent: the outbox of `type` was emptied.
    nonisolated func forgetSentValues(ofType type: String) {
        sentValues.withLock { sent in sent = sent.filter { $0.value.elementType != type } }
    }

    /// Whether `server`, an element's server value, is what the last request of `mutation`
    /// sent: then it holds the mutation already.
    nonisolated func holds(_ mutation: StoredMutation, _ server: Data?) -> Bool {
        guard let server else { return false }
        return sentValues.withLock { $0[mutation.sequence]?.value } == server
    }

    /// The mutations of `pending` (an element's, in order) to show over `server`: every one,
    /// less the first when ``holds(_:_:)`` says `server` holds it (the first is the one sent).
    nonisolated func mutationsToShow(over server: Data, _ pending: [StoredMutation]) -> ArraySlice<StoredMutation> {
        guard let first = pending.first, holds(first, server) else { return pending[...] }
        return pending.dropFirst()
    }
}
