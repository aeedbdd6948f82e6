import ContentLoading

/// Records the states a loader goes through so a test can await and assert the sequence.
///
/// ```swift
/// let recorder = StateRecorder(model)           // subscribes now; first state is the current one
/// model.refresh()
/// #expect(try await recorder.phases(count: 3) == [.unloaded, .loading, .success])
/// ```
///
/// A ``StreamRecorder`` of a model's states, with phases. Made from the model, it records each
/// state as the model moves to it, so ``states`` is whole as soon as the model's caller goes on
/// (after `await model.refresh().completed()`, say); made from a stream, it records what the
/// stream has given so far.
@MainActor
public final class StateRecorder<Value: Sendable> {
    private let recorder: StreamRecorder<ContentLoadingState<Value>>
    /// Stops recording the model's states (nothing for a stream).
    private let stopObserving: @Sendable () -> Void

    /// Records the states of `stream`.
    public init(_ stream: AsyncStream<ContentLoadingState<Value>>) {
        recorder = StreamRecorder(stream)
        stopObserving = {}
    }

    /// Records the states of `model`, starting with its current state.
    public init<Input>(_ model: ContentLoadingViewModel<Input, Value>) {
        // NB: the model's stream only tells when the model is released (``isFinished``); its
        // states are recorded as the model moves, not when its stream gets them, which goes
        // through the main queue twice and came after the test had gone on.
        let recorder = StreamRecorder(model.states, recordingElements: false)
        recorder.record(model.state)
        self.recorder = recorder
        stopObserving = model.observeStates { [weak recorder] state in recorder?.record(state) }
    }

    deinit { stopObserving() }

    /// Every state recorded so far, oldest first.
    public var states: [ContentLoadingState<Value>] { recorder.elements }
    /// The phases of the recorded states.
    public var phases: [ContentLoadingPhase] { states.map(\.phase) }
    /// Whether the recorded stream has finished (the model was released).
    public var isFinished: Bool { recorder.isFinished }

    /// Waits until at least `count` states are recorded (or the stream finished) and returns
    /// the first `count`.
    ///
    /// - Throws: ``RecorderTimeout`` (listing the states recorded) when `timeout` passes
    ///   first; `CancellationError` when the waiting task is cancelled.
    public func states(
        count: Int, timeout: Duration = StreamRecorder<ContentLoadingState<Value>>.defaultTimeout
    ) async throws -> [ContentLoadingState<Value>] {
        try await recorder.values(count: count, timeout: timeout)
    }

    /// The phases of ``states(count:timeout:)``.
    public func phases(
        count: Int, timeout: Duration = StreamRecorder<ContentLoadingState<Value>>.defaultTimeout
    ) async throws -> [ContentLoadingPhase] {
        try await states(count: count, timeout: timeout).map(\.phase)
    }

    /// The first state not yet returned by an earlier `next`, waiting for it if it has not
    /// arrived (a state that arrived before the call is never skipped); `nil` when the stream
    /// finishes first.
    ///
    /// - Throws: ``RecorderTimeout`` or `CancellationError`, as ``states(count:timeout:)``.
    public func next(
        timeout: Duration = StreamRecorder<ContentLoadingState<Value>>.defaultTimeout
    ) async throws -> ContentLoadingState<Value>? {
        try await recorder.next(timeout: timeout)
    }
}
