import ContentLoading
import ContentLoadingSupport
import Foundation

/// What one key of a ``KeyedRepository`` shares between its readers, its writers and its
/// fetch: the readers' broadcast, the single flight, the lock its writes take, the version of
/// its last write and how often it was invalidated.
final class KeyChannel<Value: Sendable>: Sendable {
    /// What every reader of the key receives (a write, a failure, an invalidation), or what
    /// one reader is told about its own fetch.
    enum Delivery: Sendable {
        /// A write, with the validators (and freshness) its fetch got; none for a save.
        case value(Value, origin: CacheOrigin, writtenAt: Date, version: UInt64, validators: Validators = .none)
        /// An edit of some elements of the value (an element change, see `ElementVersions`):
        /// element changes reach a list in their own order, so `version` is the latest the key
        /// has had, and the edit is given even to a reader that was given that version.
        case edited(Value, origin: CacheOrigin, writtenAt: Date, version: UInt64, validators: Validators)
        case removed(version: UInt64)
        /// A fetch found the value unchanged: its age starts again at `writtenAt`.
        case confirmed(Value, writtenAt: Date, version: UInt64, validators: Validators)
        /// A fetch, a read or a write failed; `flight` names the fetch that failed, if one did.
        case failure(any Error, flight: UInt64?)
        /// The key was invalidated, for the `count`-th time.
        case invalidated(count: UInt64)
        /// The fetch this reader started or joined has ended (sent to that reader only, after
        /// everything the fetch delivered).
        indirect case fetchEnded(FlightEnd)

        /// Whether it is a fetch's value (written, or confirmed unchanged).
        var isFetched: Bool {
            switch self {
            case .value(_, let origin, _, _, _): origin == .remote
            case .confirmed: true
            default: false
            }
        }

        /// The value it brings (written, edited or confirmed); `nil` for another delivery.
        var deliveredValue: Value? {
            switch self {
            case .value(let value, _, _, _, _), .edited(let value, _, _, _, _), .confirmed(let value, _, _, _): value
            default: nil
            }
        }
    }

    /// How a fetch of the key ended, as every caller that waited for it learns it.
    struct FlightEnd: Sendable {
        /// Which fetch of the key it was.
        let flight: UInt64
        /// What it did, or its error.
        let result: Result<SyncOutcome, any Error>
        /// What it delivered to every reader (its value, or a confirmation); `nil` when it
        /// wrote nothing.
        let delivery: Delivery?
        /// What had been done to the key when its request started; `nil` when it made none.
        let started: Mark?
    }

    /// What had been done to the key at a moment: how often it had been invalidated (also by
    /// what its fetch on the way may hold, see ``invalidateInFlight(matching:)``), and the
    /// version of its last write of the whole value (a save, a removal, a fetch's value).
    struct Mark: Sendable {
        let invalidations: UInt64
        let invalidationsInFlight: UInt64
        let writtenWhole: UInt64

        /// Whether something was done to the key between this moment and `later`: a fetch whose
        /// request started at this one brings what the server held before it.
        func precedes(_ later: Mark) -> Bool {
            invalidations < later.invalidations || invalidationsInFlight < later.invalidationsInFlight
                || writtenWhole < later.writtenWhole
        }
    }

    let readers: Broadcast<Delivery>
    /// The key's fetch in flight. A failed fetch's error reaches every reader once the fetch
    /// has ended: a refresh a reader makes on seeing it starts a new fetch, it does not join
    /// the one that failed.
    let flight: SingleFlight<FlightEnd>
    /// Held by every write of the key (save, removal, element patch, a fetch's result) from
    /// its check to its delivery, so writes reach the tiers and readers in version order and a
    /// patch reads the list it writes back.
    let writes = AsyncLock()
    private let state = Locked(
        (
            written: UInt64(0), writtenWhole: UInt64(0), flights: UInt64(0), invalidations: UInt64(0),
            invalidationsInFlight: UInt64(0)
        ))
    /// Invalidations of the values that match, made while a fetch of the key was on its way
    /// and nothing held showed whether the key's value matches (a list nobody reads, by the
    /// elements it holds): the value that fetch brings is stale when one matches it.
    private let matchesInFlight = Locked<[@Sendable (Value) -> Bool]>([])
    /// The value of the last write in this process, kept only by a repository that compares
    /// values (one over a ``LocalStore``), to tell its own writes from others' in the store.
    let lastWritten = Locked<Value?>(nil)

    init() {
        let readers = Broadcast<Delivery>()
        self.readers = readers
        flight = SingleFlight { end in
            guard case .failure(let error) = end.result, !(error is CancellationError) else { return }
            readers.send(.failure(error, flight: end.flight))
        }
    }

    /// The version of the last write (or removal) of the key in this process.
    var writtenVersion: UInt64 { state.withLock { $0.written } }

    /// Whether a write came after version `seen` (the version a fetch saw when it started):
    /// then the fetch must not overwrite it.
    func wasWritten(after seen: UInt64) -> Bool { state.withLock { $0.written > seen } }

    /// Whether a write of the whole value (not an edit of some of its elements) came after
    /// version `seen`: then it holds every element change up to it.
    func wasWrittenWhole(after seen: UInt64) -> Bool { state.withLock { $0.writtenWhole > seen } }

    /// Records a write (or removal) stored at `version`: of the whole value, or an edit of
    /// some of its elements (`whole` false).
    func record(_ version: UInt64, whole: Bool = true) {
        state.withLock { state in
            state.written = max(state.written, version)
            if whole { state.writtenWhole = max(state.writtenWhole, version) }
        }
    }

    /// A number for a new fetch of the key.
    func nextFlight() -> UInt64 {
        state.withLock { state in
            state.flights += 1
            return state.flights
        }
    }

    /// What has been done to the key so far (see ``Mark``), while someone used it.
    var mark: Mark {
        state.withLock {
            Mark(
                invalidations: $0.invalidations, invalidationsInFlight: $0.invalidationsInFlight,
                writtenWhole: $0.writtenWhole)
        }
    }

    /// Makes the value of the fetch on its way stale when `matches` says so (see
    /// ``takeMatchesInFlight()``); a caller that comes for a new value after this is answered
    /// by a fetch whose request started after it.
    func invalidateInFlight(matching matches: @escaping @Sendable (Value) -> Bool) {
        matchesInFlight.withLock { $0.append(matches) }
        state.withLock { $0.invalidationsInFlight += 1 }
    }

    /// Takes the invalidations ``invalidateInFlight(matching:)`` made: a fetch takes them
    /// before its request (they are older than it) and when it writes (they are newer).
    func takeMatchesInFlight() -> [@Sendable (Value) -> Bool] {
        matchesInFlight.withLock { matches in
            defer { matches = [] }
            return matches
        }
    }

    /// Counts an invalidation and tells every reader.
    func invalidate() {
        let count = state.withLock { state in
            state.invalidations += 1
            return state.invalidations
        }
        readers.send(.invalidated(count: count))
    }
}
