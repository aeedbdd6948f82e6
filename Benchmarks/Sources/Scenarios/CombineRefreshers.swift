import Dispatch
import OpenCombine
import OpenCombineDispatch

/// Scenario 1, the peer: the same view model as an RxSwift / ReactiveCocoa user writes it, with
/// OpenCombine: a subject of inputs, each mapped onto the loader (bridged with `Deferred` and
/// `Future`) with its loading and error states, switch-to-latest, delivered on the main queue
/// and published through a `CurrentValueSubject`.
///
/// Like the kit's model it has a loading state that keeps the previous content, an error
/// state, and main-thread delivery; the loader may throw, as the kit's `init(load:)` allows.
@MainActor
public final class CombineRefresher {
    enum State {
        case idle
        case loading(previous: Int?)
        case loaded(Int)
        case failed(any Error, previous: Int?)

        var content: Int? {
            switch self {
            case .idle: nil
            case .loaded(let value): value
            case .loading(let previous), .failed(_, let previous): previous
            }
        }
    }

    private let inputs = PassthroughSubject<Int, Never>()
    private let state = CurrentValueSubject<State, Never>(.idle)
    private var cancellables: [AnyCancellable] = []
    private var waiter: (input: Int, continuation: CheckedContinuation<Void, Never>)?

    /// Wires the inputs to the state.
    public init() {
        inputs
            .map { [state] input in
                let previous = state.value.content
                return Deferred {
                    Future<Int, any Error> { promise in
                        Task { promise(.success(try await throwingInstantLoad(input))) }
                    }
                }
                .map(State.loaded)
                .catch { Just(.failed($0, previous: previous)) }
                .prepend(.loading(previous: previous))
            }
            .switchToLatest()
            .receive(on: DispatchQueue.main.ocombine)
            .sink { [state] in state.send($0) }
            .store(in: &cancellables)
        state
            .sink { [weak self] state in
                MainActor.assumeIsolated { self?.resume(on: state) }
            }
            .store(in: &cancellables)
    }

    /// The content the state holds.
    public var value: Int? { state.value.content }

    /// Sends the input, waits until the state holds its result.
    public func cycle(_ input: Int) async {
        await withCheckedContinuation { continuation in
            waiter = (input, continuation)
            inputs.send(input)
        }
    }

    private func resume(on state: State) {
        guard let waiter, case .loaded(waiter.input) = state else { return }
        self.waiter = nil
        waiter.continuation.resume()
    }
}

/// The lean OpenCombine peer measured before 2026-11-21, kept for comparison: no loading or
/// error state, the loader started on the main actor, no scheduler hop.
@MainActor
public final class LeanCombineRefresher {
    private let inputs = PassthroughSubject<Int, Never>()
    private let state = CurrentValueSubject<Int?, Never>(nil)
    private var cancellables: [AnyCancellable] = []
    private var waiter: (input: Int, continuation: CheckedContinuation<Void, Never>)?

    /// Wires the inputs to the state.
    public init() {
        inputs
            .map { input in
                Future<Int, Never> { promise in
                    Task { @MainActor in promise(.success(await instantLoad(input))) }
                }
            }
            .switchToLatest()
            .sink { [state] value in state.send(value) }
            .store(in: &cancellables)
        state
            .sink { [weak self] value in
                MainActor.assumeIsolated { self?.resume(on: value) }
            }
            .store(in: &cancellables)
    }

    /// The value the state holds.
    public var value: Int? { state.value }

    /// Sends the input, waits until the state holds its result.
    public func cycle(_ input: Int) async {
        await withCheckedContinuation { continuation in
            waiter = (input, continuation)
            inputs.send(input)
        }
    }

    private func resume(on value: Int?) {
        guard let waiter, value == waiter.input else { return }
        self.waiter = nil
        waiter.continuation.resume()
    }
}
