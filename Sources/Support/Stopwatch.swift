/// Measures elapsed time on an injected clock, with the clock's type erased.
///
/// NB: the closures are built once; marking a start stores only the clock's instant, so
/// starting a measurement allocates nothing (it happens on every delivered value).
@usableFromInline package struct Stopwatch: Sendable {
    /// A start instant of the stopwatch's clock.
    @usableFromInline package struct Mark: Sendable {
        @usableFromInline let instant: any Sendable
        @usableFromInline init(instant: any Sendable) { self.instant = instant }
    }

    @usableFromInline let now: @Sendable () -> any Sendable
    private let elapsed: @Sendable (any Sendable) -> Duration

    package init<C: Clock>(clock: C) where C.Duration == Duration {
        now = { clock.now }
        elapsed = { start in
            guard let start = start as? C.Instant else { return .zero }
            return start.duration(to: clock.now)
        }
    }

    /// Starts a measurement now.
    @inlinable package func start() -> Mark { Mark(instant: now()) }

    /// The time since `mark` was started.
    package func elapsed(since mark: Mark) -> Duration { elapsed(mark.instant) }
}
