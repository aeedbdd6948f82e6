/// Measures elapsed time on an injected clock, with the clock's type erased.
///
/// NB: the stopwatch reads the clock once when it is made, and a mark is the time since
/// then: a plain `Duration`, so starting a measurement (which happens on every delivered
/// value) neither boxes the clock's instant nor casts it back.
@usableFromInline package struct Stopwatch: Sendable {
    /// A start time: how long after the stopwatch was made the measurement started.
    @usableFromInline package struct Mark: Sendable {
        @usableFromInline let offset: Duration
        @usableFromInline init(offset: Duration) { self.offset = offset }
    }

    /// The time since the stopwatch was made.
    @usableFromInline let sinceOrigin: @Sendable () -> Duration

    package init<C: Clock>(clock: C) where C.Duration == Duration {
        let origin = clock.now
        sinceOrigin = { origin.duration(to: clock.now) }
    }

    /// Starts a measurement now.
    @usableFromInline package func start() -> Mark { Mark(offset: sinceOrigin()) }

    /// The time since `mark`, one of this stopwatch's, was started.
    package func elapsed(since mark: Mark) -> Duration { sinceOrigin() - mark.offset }
}
