extension Duration {
    /// The duration in seconds, as a `Double` (a `TimeInterval`): for APIs that take seconds, and
    /// for arithmetic that must not trap where `Duration`'s integer arithmetic would.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
