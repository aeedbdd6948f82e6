import ContentLoading

/// Records the states a loader goes through so a test can await and assert the sequence.
///
/// ```swift
/// let recorder = StateRecorder(model)           // subscribes now; first state is the current one
/// model.refresh()
/// #expect(await recorder.phases(count: 3) == [.unloaded, .loading, .success])
/// ```
///
/// A ``StreamRecorder`` of the model's ``ContentLoadingViewModel/states``, with phases.
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
    public func states(count: Int) async -> [ContentLoadingState<Value>] {
        await recorder.values(count: count)
    }

    /// The phases of ``states(count:)``.
    public func phases(count: Int) async -> [ContentLoadingPhase] {
        await states(count: count).map(\.phase)
    }

    /// Waits for the next state after the ones already recorded, or `nil` when the stream
    /// finishes first.
    public func next() async -> ContentLoadingState<Value>? {
        await recorder.next()
    }
}
