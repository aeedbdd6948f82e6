import ContentLoadingSupport
import Foundation

/// The timer that ends one hop of a load that went quiet for its idle timeout, or ran past its
/// deadline: it abandons the exchange with ``APIError/timedOut(url:after:)`` or
/// ``APIError/deadlineExceeded(url:after:)`` and cancels the session's task (`cancelTask`).
///
/// NB: the idle timeout is the kit's, not the session's: FoundationNetworking takes a request's
/// `timeoutInterval` in whole seconds, rounded down, so an idle timeout under a second timed a
/// request out within a millisecond and 1.5 s was 1 s. The session gets a later one, which
/// this timer comes before (``sessionTimeout(for:)``).
///
/// NB: a Dispatch timer, not a sleeping task: with the cooperative pool's threads busy (a
/// loaded machine, other work blocking them) a sleeping task fired seconds late. It holds the
/// exchange and the task weakly, and is cancelled when the hop ends, so it keeps neither alive
/// until the deadline (an `asyncAfter` work item did). It fires at the earlier of the deadline
/// and the end of the quiet time so far, and again later when bytes came meanwhile.
struct LoadWatchdog {
    /// The timer, which its handler reschedules; `nil` once cancelled, which also breaks the
    /// cycle from the timer through its handler back to it.
    private let timer = Locked<(any DispatchSourceTimer)?>(DispatchSource.makeTimerSource(queue: .global()))

    /// Starts watching `exchange` for `url`: quiet for `idleTimeout`, or past `end` (the
    /// deadline, `shown` in its error).
    init(
        _ exchange: HTTPExchange, url: URL, idleTimeout: Duration, end: ContinuousClock.Instant, shown: Duration,
        cancelTask: @escaping @Sendable () -> Void
    ) {
        let timer = timer
        timer.withLock { $0 }?.setEventHandler { [weak exchange] in
            guard let exchange else { return }
            let now = ContinuousClock.now
            let quietEnd = exchange.lastActivity + idleTimeout
            let failure: APIError
            if now >= end {
                failure = .deadlineExceeded(url: url, after: shown)
            } else if now >= quietEnd {
                failure = .timedOut(url: url, after: idleTimeout)
            } else {
                timer.withLock { $0?.schedule(deadline: .now() + (min(end, quietEnd) - now).seconds) }
                return
            }
            exchange.abandon(with: failure)
            cancelTask()
        }
        let now = ContinuousClock.now
        timer.withLock { timer in
            timer?.schedule(deadline: .now() + max(min(end, now + idleTimeout) - now, .zero).seconds)
            timer?.resume()
        }
    }

    /// Stops watching (the hop ended).
    func cancel() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    /// The session's own idle timeout for a load whose idle timeout is `idleTimeout`: whole
    /// seconds, a second past it, so that the watchdog ends a quiet load first; at most 10^9
    /// seconds (about 32 years).
    static func sessionTimeout(for idleTimeout: Duration) -> TimeInterval {
        // NB: FoundationNetworking turns the timeout into milliseconds in an `Int`, which traps
        // past 2^63 (an idle timeout of `.seconds(Int64.max)`, meaning "none").
        min(max(idleTimeout.seconds.rounded(.up) + 1, 1), 1e9)
    }
}
