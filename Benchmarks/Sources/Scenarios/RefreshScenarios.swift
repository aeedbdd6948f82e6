import ContentLoading
import Dispatch
import Observation
import OpenCombine
import OpenCombineDispatch

/// The instant loader every refresh scenario uses.
@Sendable func instantLoad(_ input: Int) async -> Int { input }

/// The instant loader, typed as a loader that can fail (as the kit's `init(load:)` is).
@Sendable func throwingInstantLoad(_ input: Int) async throws -> Int { input }

/// Scenario 1 and 2, the kit: a `ContentLoadingViewModel` with an instant loader.
@MainActor
public final class KitRefresher {
    final class Model: ContentLoadingViewModel<Int, Int> {
        var applied = 0
        override func isEmpty(_ output: Int) -> Bool {
            applied += 1  // NB: called once for each value that reaches the state.
            return false
        }
    }

    let model = Model { await instantLoad($0) }
    public init() {}

    /// Refresh → settled.
    public func cycle(_ input: Int) async { await model.refresh(input).settled() }

    /// `count` refreshes back to back, then waits for the model to settle; returns how many
    /// results were applied.
    public func burst(_ count: Int) async -> Int {
        let before = model.applied
        var last: RefreshHandle<Int>?
        for input in 0..<count { last = model.refresh(input) }
        await last?.settled()
        return model.applied - before
    }
}

/// Scenario 1 and 2, the bare baseline: the minimum a refresh needs, written by hand.
@MainActor
@Observable
public final class BareRefresher {
    public private(set) var value: Int?
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored public private(set) var applied = 0

    public init() {}

    /// Start one task, await an instant loader, assign the result.
    public func cycle(_ input: Int) async {
        let task = Task { await instantLoad(input) }
        value = await task.value
        applied += 1
    }

    /// The same burst by hand: each refresh cancels the previous task; a cancelled one does
    /// not assign.
    public func burst(_ count: Int) async -> Int {
        let before = applied
        for input in 0..<count {
            task?.cancel()
            task = Task { [weak self] in
                let result = await instantLoad(input)
                guard !Task.isCancelled else { return }
                self?.value = result
                self?.applied += 1
            }
        }
        await task?.value
        return applied - before
    }
}

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
