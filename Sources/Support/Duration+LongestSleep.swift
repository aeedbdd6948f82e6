extension Duration {
    /// The longest the kit sleeps at once: about 32 years, a wait without practical end. The
    /// standard library's clocks trap on a deadline whose seconds do not fit in an `Int64`
    /// (now plus `.seconds(Int64.max)`), which an app's "no limit" or a server's `Retry-After`
    /// would otherwise reach.
    package static var longestSleep: Duration { .seconds(1_000_000_000) }
}
