import Observation

/// Scenario 1, the parking baseline with the guarantees the kit keeps, written by hand: the
/// loading state is published, a cancelled waiter goes on, and the refresher is released (and
/// its load cancelled) while a load runs.
///
/// ``ParkingRefresher`` is the fastest hand-written cycle because it leaves these out: its loading flag
/// is hidden from Observation (a view cannot show a spinner), its waiter stays parked when its
/// task is cancelled (until the next refresh ends), and its load task keeps it alive. Each
/// costs something on every cycle; this baseline pays for them as plainly as it can, so the
/// kit can be compared with code that does what it does. It still leaves out what a kit
/// model adds beyond them: a task handle to await, error and empty states, streams, the
/// content's age, several waiters.
@MainActor
@Observable
public final class GuardedParkingRefresher {
    /// What a view reads: the last value and whether a refresh runs.
    public struct State: Equatable, Sendable {
        /// The last value assigned.
        public var value: Int?
        /// Whether a refresh runs.
        public var isLoading = false
    }

    /// The published state: one observed change when a refresh starts, one when it ends.
    public private(set) var state = State()
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored private let parking = Parking()

    /// A refresher with nothing loaded.
    public init() {}

    deinit { task?.cancel() }

    /// The last value assigned.
    public var value: Int? { state.value }

    /// Starts a task that awaits the instant loader, publishes the result and releases the
    /// waiter; the task holds the refresher weakly.
    public func refresh(_ input: Int) {
        task?.cancel()
        state.isLoading = true
        parking.gate.close()
        task = Task { [weak self] in
            let result = await instantLoad(input)
            guard !Task.isCancelled, let self else { return }
            state = State(value: result, isLoading: false)
            parking.gate.open()
        }
    }

    /// Waits until the running refresh has published its result, or the waiting task is
    /// cancelled.
    public func settled() async {
        guard state.isLoading else { return }
        let parking = parking
        await withTaskCancellationHandler {
            await parking.park()
        } onCancel: {
            parking.gate.open()
        }
    }

    /// Refresh → settled.
    public func cycle(_ input: Int) async {
        refresh(input)
        await settled()
    }
}
