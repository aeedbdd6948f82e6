import ContentLoading

/// Records the states a loader goes through so a test can await and assert the sequence.
///
/// ```swift
/// let recorder = StateRecorder(model)           // subscribes now; first state is the current one
/// model.refresh()
/// #expect(try await recorder.phases(count: 3) == [.unloaded, .loading, .success])
/// ```
///
/// A ``StreamRecorder`` of the model's `ContentLoadingViewModel.states`, with phases.
@MainActor
public final class StateRecorder<Value: Sendable> {
    private let recorder: StreamRecorder<ContentLoadingState<Value>>

    /// Records the states of `stream`.
    public init(_ stream: AsyncStream<ContentLoadingState<Value>>) {
        recorder = StreamRecorder(stream)
    }

    /// Records the states of `model`, starting with its current state.
    public convenience init<Input>(_ model: ContentLoadingViewModel<Input, Value>) {
        self.init(model.states)
    }

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
