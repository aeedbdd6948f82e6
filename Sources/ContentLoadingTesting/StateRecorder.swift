import ContentLoading
import ContentLoadingSupport

/// Records the states a loader goes through so a test can await and assert the sequence.
///
/// ```swift
/// let recorder = StateRecorder(model)           // subscribes now; first state is the current one
/// model.refresh()
/// #expect(await recorder.phases(count: 3) == [.unloaded, .loading, .success])
/// ```
///
/// Waiting never sleeps: each wait resumes when the recorded states reach the count (or
/// the stream finishes, in which case it returns what was recorded).
@MainActor
public final class StateRecorder<Value: Sendable> {
    /// Every state recorded so far, oldest first.
    public private(set) var states: [ContentLoadingState<Value>] = []
    /// Whether the recorded stream has finished (the model was released).
    public private(set) var isFinished = false

    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    // NB: in a lock so the nonisolated `deinit` can cancel it (`isolated deinit` needs
    // newer Apple runtimes than the kit supports).
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Records the states of `stream`.
    public init(_ stream: AsyncStream<ContentLoadingState<Value>>) {
        let recording = Task { [weak self] in
            for await state in stream {
                guard let self else { return }
                self.record(state)
            }
            self?.finish()
        }
        task.withLock { $0 = recording }
    }

    /// Records the states of `model`, starting with its current state.
    public convenience init<Input>(_ model: ContentLoadingViewModel<Input, Value>) {
        self.init(model.states)
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// The phases of the recorded states.
    public var phases: [ContentLoadingPhase] { states.map(\.phase) }

    /// Waits until at least `count` states are recorded (or the stream finished) and returns
    /// the first `count`.
    public func states(count: Int) async -> [ContentLoadingState<Value>] {
        if states.count < count && !isFinished {
            await withCheckedContinuation { waiters.append((count, $0)) }
        }
        return Array(states.prefix(count))
    }

    /// The phases of ``states(count:)``.
    public func phases(count: Int) async -> [ContentLoadingPhase] {
        await states(count: count).map(\.phase)
    }

    /// Waits for the next state recorded after the ones already seen, or `nil` when the
    /// stream finishes first.
    public func next() async -> ContentLoadingState<Value>? {
        let index = states.count
        let recorded = await states(count: index + 1)
        return recorded.count > index ? recorded[index] : nil
    }

    private func record(_ state: ContentLoadingState<Value>) {
        states.append(state)
        resumeWaiters()
    }

    private func finish() {
        isFinished = true
        resumeWaiters()
    }

    private func resumeWaiters() {
        let ready = waiters.filter { isFinished || states.count >= $0.count }
        waiters.removeAll { isFinished || states.count >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }
}
