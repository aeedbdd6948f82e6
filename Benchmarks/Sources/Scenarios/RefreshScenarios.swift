import ContentLoading
import Observation
import OpenCombine

/// The instant loader every refresh scenario uses.
@Sendable func instantLoad(_ input: Int) async -> Int { input }

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

/// Scenario 1, the peer: the view model as an RxSwift / ReactiveCocoa user writes it, with
/// OpenCombine: a subject of inputs, switch-to-latest onto the loader, the state published
/// through a `CurrentValueSubject`.
@MainActor
public final class CombineRefresher {
    enum State: Equatable { case idle, loading, loaded(Int) }

    private let inputs = PassthroughSubject<Int, Never>()
    private let state = CurrentValueSubject<State, Never>(.idle)
    private var cancellables: [AnyCancellable] = []
    private var waiter: (input: Int, continuation: CheckedContinuation<Void, Never>)?

    public init() {
        inputs
            .map { input in
                Future<Int, Never> { promise in
                    // NB: state is published on the main actor, as a UI view model must.
                    Task { @MainActor in promise(.success(await instantLoad(input))) }
                }
            }
            .switchToLatest()
            .sink { [state] value in state.send(.loaded(value)) }
            .store(in: &cancellables)
        state
            .sink { [weak self] state in
                MainActor.assumeIsolated { self?.resume(on: state) }
            }
            .store(in: &cancellables)
    }

    /// Send the input, wait until the state holds its result.
    public func cycle(_ input: Int) async {
        await withCheckedContinuation { continuation in
            waiter = (input, continuation)
            state.send(.loading)
            inputs.send(input)
        }
    }

    private func resume(on state: State) {
        guard let waiter, state == .loaded(waiter.input) else { return }
        self.waiter = nil
        waiter.continuation.resume()
    }
}
