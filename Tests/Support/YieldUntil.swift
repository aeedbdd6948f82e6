/// Yields until `condition` holds or `timeout` passes, and says whether it holds: a wait for
/// what sends no signal of its own (an object freed, a call that has begun to wait), never a
/// sleep. The caller asserts the answer.
nonisolated(nonsending) public func yieldUntil(
    timeout: Duration = .seconds(10), _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition(), ContinuousClock.now < deadline { await Task.yield() }
    return condition()
}
