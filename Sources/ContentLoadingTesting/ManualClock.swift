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
        /// Tests waiting for sleepers: how many each waits for.
        var watchers: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

        /// Takes the watchers whose count of sleepers is reached.
        mutating func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let satisfied = watchers.filter { $0.value.count <= sleepers.count }
            for key in satisfied.keys { watchers[key] = nil }
            return satisfied.values.map(\.continuation)
        }
    }

    private let storage = Locked(Storage())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant { storage.withLock { $0.now } }

    /// The clock has no granularity of its own.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps wait for the clock now.
    public var sleeperCount: Int { storage.withLock { $0.sleepers.count } }

    /// Returns once at least `count` sleeps wait for the clock, so that a test advances it after
    /// the code under test has started waiting.
    ///
    /// ```swift
    /// let load = Task { try await retry.run { try await api.contacts() } }
    /// try await clock.waitForSleepers(1)   // the first attempt failed; its backoff waits
    /// clock.advance(by: .seconds(1))
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many sleeps to wait for. Defaults to 1.
    ///   - timeout: How long to wait. Defaults to ``WaitTimeout/defaultTimeout``.
    /// - Throws: ``WaitTimeout`` (naming the count, the sleeps waiting and the clock's time) when
    ///   `timeout` passes first, for example when nothing under test sleeps;
    ///   `CancellationError` when the waiting task is cancelled first.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = WaitTimeout.defaultTimeout) async throws {
        guard sleeperCount < count else { return }
        try await withTimeout(
            timeout,
            awaiting: { [self] in
                "\(count) sleep\(count == 1 ? "" : "s") on the ManualClock; \(sleeperCount) waiting at \(now.offset)"
            }
        ) { [self] in
            await untilSleeping(count)
            try Task.checkCancellation()
        }
    }

    /// Returns once at least `count` sleeps wait for the clock, or when the calling task is
    /// cancelled. It has no time limit: use ``waitForSleepers(_:timeout:)``.
    @available(*, deprecated, renamed: "waitForSleepers(_:timeout:)", message: "it waits with no time limit")
    public func sleepers(_ count: Int = 1) async {
        await untilSleeping(count)
    }

    /// Returns once at least `count` sleeps wait for the clock, or when the calling task is
    /// cancelled.
    private func untilSleeping(_ count: Int) async {
        let key = storage.withLock { storage in
            defer { storage.nextKey += 1 }
            return storage.nextKey
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let reached = storage.withLock { storage in
                    if storage.sleepers.count >= count || Task.isCancelled { return true }
                    storage.watchers[key] = (count, continuation)
                    return false
                }
                if reached { continuation.resume() }
            }
        } onCancel: {
            storage.withLock { $0.watchers.removeValue(forKey: key) }?.continuation.resume()
        }
    }

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
                var watchers: [CheckedContinuation<Void, Never>] = []
                let outcome: Result<Void, any Error>? = storage.withLock { storage in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= storage.now { return .success(()) }
                    storage.sleepers[key] = (deadline, continuation)
                    watchers = storage.takeSatisfiedWatchers()
                    return nil
                }
                for watcher in watchers { watcher.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = storage.withLock { $0.sleepers.removeValue(forKey: key) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
