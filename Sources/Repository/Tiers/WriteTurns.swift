/// The writes of one `DiskCache` that wait for another connection's write lock on the file,
/// in the order they came: while one waits, the writes after it wait behind it, so one
/// connection's writes still commit in the order they were asked for.
///
/// Kept in the cache's actor, so every change runs there.
struct WriteTurns {
    /// Whether a write is waiting for the lock, or has been given the turn to.
    private(set) var isTaken = false
    /// The writes waiting for their turn, first first.
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// How many writes wait for their turn.
    var waitingCount: Int { waiting.count }

    /// Takes the turn, which nobody has.
    mutating func take() {
        precondition(!isTaken, "a write took a turn another one holds")
        isTaken = true
    }

    /// Waits behind the writes that have the turn or wait for it; `resume` returns holding it.
    mutating func wait(_ resume: CheckedContinuation<Void, Never>) {
        waiting.append(resume)
    }

    /// Gives the turn to the write that has waited longest, or frees it.
    mutating func passOn() {
        if waiting.isEmpty {
            isTaken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
