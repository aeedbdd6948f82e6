/// Measures elapsed time on an injected clock, with the clock's type erased.
package struct Stopwatch: Sendable {
    private let startTiming: @Sendable () -> @Sendable () -> Duration

    package init<C: Clock>(clock: C) where C.Duration == Duration {
        startTiming = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// Starts timing now; the returned closure tells the time elapsed since.
    package func start() -> @Sendable () -> Duration { startTiming() }
}
