import ContentLoadingSupport

/// A refresh awaited on the main actor: the spot its task parks on, and the state it goes on
/// with.
///
/// NB: @unchecked: `state` is written under the outlets' lock, by whoever takes the waiter out
/// (a settling publish, the waiting task's cancellation, the model's release), before the spot
/// is released; the waiting task reads it once its wait returns, and the release, which hands
/// the task to the main queue, orders the two. One task uses a waiter at a time; the outlets
/// keep one idle for the next wait.
@usableFromInline final class ParkedWaiter<Output: Sendable>: @unchecked Sendable {
    @usableFromInline let spot = ParkingSpot()
    /// The state handed over; `.some(nil)` when the waiting task was cancelled.
    @usableFromInline var state: ContentLoadingState<Output>??

    @inlinable init() {}
}
