/// How a ``RetryPolicy`` randomises each wait, so that clients that failed together do not
/// all retry at the same moment.
public enum RetryJitter: Sendable, Hashable {
    /// The backoff exactly.
    case none
    /// Anywhere from zero to the backoff ("full jitter").
    case full
    /// Half the backoff, plus anywhere up to the other half ("equal jitter").
    case equal

    /// The wait for `backoff`, given a random number in `0...1`.
    func apply(to backoff: Duration, random: Double) -> Duration {
        switch self {
        case .none: backoff
        case .full: backoff * random
        case .equal: backoff / 2 + (backoff / 2) * random
        }
    }
}
