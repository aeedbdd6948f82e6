import ContentLoading
import Observation

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

    /// A model with the instant loader.
    public init() {}

    /// The value the model's state holds.
    public var value: Int? { model.state.value }

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

/// Scenario 1 and 2, the bare baseline: the minimum a refresh needs, written by hand; the
/// caller waits for the refresh's task (`Task.value`).
@MainActor
@Observable
public final class BareRefresher {
    /// The last value assigned.
    public private(set) var value: Int?
    @ObservationIgnored private var task: Task<Void, Never>?
    /// How many results were assigned.
    @ObservationIgnored public private(set) var applied = 0

    /// A refresher with nothing loaded.
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

/// Scenario 1, the second hand-written baseline: the task assigns its result and resumes a
/// waiting continuation (as the OpenCombine peers wait), instead of the caller awaiting the
/// task. One waiter at a time; the waiter is not cancellable.
@MainActor
@Observable
public final class ContinuationRefresher {
    /// The last value assigned.
    public private(set) var value: Int?
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored private var waiter: UnsafeContinuation<Void, Never>?
    @ObservationIgnored private var isLoading = false

    /// A refresher with nothing loaded.
    public init() {}

    /// Starts a task that awaits the instant loader, assigns the result and resumes the waiter.
    public func refresh(_ input: Int) {
        task?.cancel()
        isLoading = true
        task = Task {
            let result = await instantLoad(input)
            guard !Task.isCancelled else { return }
            value = result
            isLoading = false
            waiter?.resume()
            waiter = nil
        }
    }

    /// Waits until the running refresh has assigned its result.
    public func settled() async {
        guard isLoading else { return }
        await withUnsafeContinuation { waiter = $0 }
    }

    /// Refresh → settled.
    public func cycle(_ input: Int) async {
        refresh(input)
        await settled()
    }
}
