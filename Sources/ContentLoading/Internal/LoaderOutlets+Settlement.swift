import ContentLoadingSupport

extension LoaderOutlets {
    /// What publishing does with the model's load task.
    @usableFromInline enum TaskChange {
        /// The running task stays.
        case keep
        /// `task` starts running; the one it replaces is cancelled.
        case replace(Task<Void, Never>)
        /// The running task is cancelled.
        case cancel
        /// The running task ended; it is let go.
        case release

        /// Whether the change leaves the running task as it is.
        @inlinable var isKeep: Bool {
            if case .keep = self { true } else { false }
        }

        /// Returns the change, leaving `.keep` in its place.
        @inlinable mutating func take() -> Self {
            defer { self = .keep }
            return self
        }

        /// Whether the task the change takes out is cancelled.
        @inlinable var cancelsPrevious: Bool {
            switch self {
            case .replace, .cancel: true
            case .keep, .release: false
            }
        }
    }

    /// What one `commit` took out, for the model to act on outside the lock: the refreshes it
    /// settled and the load task it replaced.
    ///
    /// NB: outside the lock, because nothing the kit holds a lock for may call out (a
    /// resumption can wait for the waiting task's status lock, which its cancellation handler
    /// holds while it waits for ours).
    @usableFromInline struct Settlement {
        @usableFromInline let state: ContentLoadingState<Output>
        @usableFromInline let first: Waiter?
        @usableFromInline let others: [Waiter]
        @usableFromInline let completed: [CompletionWaiter]
        @usableFromInline let previousTask: Task<Void, Never>?
        @usableFromInline let cancelsPreviousTask: Bool

        @inlinable init(
            state: ContentLoadingState<Output>, first: Waiter?, others: [Waiter], completed: [CompletionWaiter],
            previousTask: Task<Void, Never>?, cancelsPreviousTask: Bool
        ) {
            self.state = state
            self.first = first
            self.others = others
            self.completed = completed
            self.previousTask = previousTask
            self.cancelsPreviousTask = cancelsPreviousTask
        }

        /// Cancels the replaced task, if the change asked for it, and releases the settled
        /// refreshes awaited on the main actor; call it on the main actor, before publishing.
        ///
        /// NB: such a waiter is parked, and its release queues it on the main queue, behind the
        /// main-actor job that publishes; so it still finds Observation, `stateDidChange` and
        /// the streams done, and it goes on with the state its load settled in even when
        /// `stateDidChange` starts another load before the publishing ends.
        @inlinable func start() {
            if cancelsPreviousTask { previousTask?.cancel() }
            if let first, first.isOnMainActor { first.resume(returning: state) }
            for waiter in others where waiter.isOnMainActor { waiter.resume(returning: state) }
        }

        /// Resumes the settled refreshes awaited anywhere else; call it once the model has
        /// published.
        @inlinable func finish() {
            if let first, !first.isOnMainActor { first.resume(returning: state) }
            for waiter in others where !waiter.isOnMainActor { waiter.resume(returning: state) }
            for waiter in completed { waiter.continuation.resume(returning: state) }
        }
    }
}
