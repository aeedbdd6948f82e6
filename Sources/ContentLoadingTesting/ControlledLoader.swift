import ContentLoading
import ContentLoadingSupport

/// A load function whose calls suspend until the test completes them, reporting each call.
///
/// Use it as a loader's work to decide, from the test, when and how each load ends:
///
/// ```swift
/// let loader = ControlledLoader<String, [Int]>()
/// let model = ContentLoadingViewModel<String, [Int]>(load: loader.load)
/// model.refresh("a")
/// let call = try await loader.call(0)          // waits until the load is running
/// loader.complete(call, returning: [1, 2])
/// ```
public final class ControlledLoader<Input: Sendable, Output: Sendable>: Sendable {
    /// One call of ``load(_:)``.
    public struct Call: Sendable {
        /// The call's position, from 0.
        public let index: Int
        /// The input it was called with.
        public let input: Input
    }

    private struct Storage {
        var calls: [Call] = []
        var pending: [Int: CheckedContinuation<Output, any Error>] = [:]
        /// Calls that were completed (by the test, or by their cancellation).
        var finished: Set<Int> = []
        var callWaiters: [(index: Int, signal: SettleSignal<Void>)] = []
    }

    private let storage = Locked(Storage())
    private let honorsCancellation: Bool

    /// Creates a loader.
    ///
    /// - Parameter honorsCancellation: When `true` (the default) a cancelled call throws
    ///   `CancellationError` at once; when `false` it keeps waiting for the test, like work
    ///   that ignores cancellation, so its result arrives late.
    public init(honorsCancellation: Bool = true) {
        self.honorsCancellation = honorsCancellation
    }

    /// The load function: records the call and suspends until the test completes it.
    @Sendable
    public func load(_ input: Input) async throws -> Output {
        let index = storage.withLock { storage in
            let call = Call(index: storage.calls.count, input: input)
            storage.calls.append(call)
            return call.index
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // NB: a call is waiting (in `pending`) or finished before ``call(_:)`` returns it,
                // so the test's ``pendingCalls`` right after `call(_:)` always holds it.
                let cancelled = honorsCancellation && Task.isCancelled
                let signals = storage.withLock { storage in
                    if cancelled { storage.finished.insert(index) } else { storage.pending[index] = continuation }
                    let ready = storage.callWaiters.filter { $0.index == index }
                    storage.callWaiters.removeAll { $0.index == index }
                    return ready.map(\.signal)
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                for signal in signals { signal.resolve(()) }
            }
        } onCancel: {
            guard honorsCancellation else { return }
            _ = complete(index, with: .failure(CancellationError()))
        }
    }

    /// Every call made so far.
    public var calls: [Call] { storage.withLock { $0.calls } }

    /// The calls still waiting to be completed, oldest first.
    public var pendingCalls: [Call] {
        storage.withLock { storage in storage.calls.filter { storage.pending[$0.index] != nil } }
    }

    /// Waits until call `index` has been made and returns it.
    ///
    /// - Parameters:
    ///   - index: The call's position, from 0.
    ///   - timeout: How long to wait. Defaults to ``WaitTimeout/defaultTimeout``.
    /// - Throws: ``WaitTimeout`` (naming the call and listing the calls made) when `timeout`
    ///   passes first, so a load that never starts fails the test instead of hanging it;
    ///   `CancellationError` when the waiting task is cancelled first.
    public func call(_ index: Int, timeout: Duration = WaitTimeout.defaultTimeout) async throws -> Call {
        if let made = madeCall(index) { return made }
        return try await withTimeout(timeout, awaiting: { [self] in "call \(index) of \(Self.self); \(callsMade)" }) {
            [self] in
            try await waitForCall(index)
        }
    }

    /// Call `index`, if it has been made and is waiting or finished.
    private func madeCall(_ index: Int) -> Call? {
        storage.withLock { storage in
            // NB: a call already recorded whose continuation is not stored yet is waited for.
            storage.pending[index] != nil || storage.finished.contains(index) ? storage.calls[index] : nil
        }
    }

    /// Waits, without a time limit, until call `index` has been made.
    private func waitForCall(_ index: Int) async throws -> Call {
        let signal = SettleSignal<Void>()
        let registered = storage.withLock { storage in
            let seen = storage.pending[index] != nil || storage.finished.contains(index)
            if !seen { storage.callWaiters.append((index, signal)) }
            return !seen
        }
        if registered, await signal.wait() == nil { throw CancellationError() }
        return storage.withLock { $0.calls[index] }
    }

    /// The calls made so far, as a timeout describes them: `2 calls made: 0 "a", 1 "b"`.
    private var callsMade: String {
        let calls = self.calls
        let listed = calls.map { "\($0.index) \(String(reflecting: $0.input))" }.joined(separator: ", ")
        return calls.isEmpty ? "no call made" : "\(calls.count) call\(calls.count == 1 ? "" : "s") made: \(listed)"
    }

    /// Completes a waiting call with `result`. Returns `false` when it was not waiting.
    @discardableResult
    public func complete(_ index: Int, with result: Result<Output, any Error>) -> Bool {
        let continuation = storage.withLock { storage in
            let continuation = storage.pending.removeValue(forKey: index)
            if continuation != nil { storage.finished.insert(index) }
            return continuation
        }
        continuation?.resume(with: result)
        return continuation != nil
    }

    /// Completes `call` with `output`.
    @discardableResult
    public func complete(_ call: Call, returning output: Output) -> Bool {
        complete(call.index, with: .success(output))
    }

    /// Completes `call` by throwing `error`.
    @discardableResult
    public func complete(_ call: Call, throwing error: any Error) -> Bool {
        complete(call.index, with: .failure(error))
    }
}
