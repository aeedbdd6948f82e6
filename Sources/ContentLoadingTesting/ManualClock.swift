import ContentLoading
import ContentLoadingSupport

/// A clock whose time moves only when a test advances it.
///
/// Inject it wherever the kit measures time (content age, freshness, expiry) to test
/// time-dependent behaviour without sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// let model = ContactsModel(lifetimeTrigger: .init(refreshOn: .willAppear, unlessYoungerThan: .seconds(60)), clock: clock)
/// clock.advance(by: .seconds(61))
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point in a ``ManualClock``'s time: the duration since the clock was created.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's start.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Storage {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: (deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var nextKey: UInt64 = 0
    }

    private let storage = Locked(Storage())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant { storage.withLock { $0.now } }

    /// The clock has no granularity of its own.
    public var minimumResolution: Duration { .zero }

    /// Moves time forward by `duration`, waking every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        let woken = storage.withLock { storage in
            storage.now = storage.now.advanced(by: duration)
            let due = storage.sleepers.filter { $0.value.deadline <= storage.now }
            for key in due.keys { storage.sleepers[key] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Suspends until the clock is advanced to `deadline`; throws `CancellationError` when the
    /// sleeping task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let key = storage.withLock { storage in
            defer { storage.nextKey += 1 }
            return storage.nextKey
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = storage.withLock { storage in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= storage.now { return .success(()) }
                    storage.sleepers[key] = (deadline, continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = storage.withLock { $0.sleepers.removeValue(forKey: key) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
