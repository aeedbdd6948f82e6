/// A recorder's wait that ran out of time: the elements it waited for never arrived.
///
/// Its description lists what **was** recorded, so the failing test shows how far the
/// sequence got.
public struct RecorderTimeout: Error, CustomStringConvertible {
    /// How many elements the wait asked for.
    public let count: Int
    /// How long it waited.
    public let timeout: Duration
    /// What was recorded when the wait gave up, oldest first, as text.
    public let recorded: [String]

    /// Creates the error of a wait for `count` elements that saw only `recorded`.
    public init<Element>(count: Int, timeout: Duration, recorded: [Element]) {
        self.count = count
        self.timeout = timeout
        self.recorded = recorded.map { String(describing: $0) }
    }

    /// What the wait asked for and what it saw: "waited 60.0 seconds for 3 elements; 2 recorded: […]".
    public var description: String {
        let wanted = count == .max ? "the stream to finish" : "\(count) elements"
        return "waited \(timeout) for \(wanted); \(recorded.count) recorded: [\(recorded.joined(separator: ", "))]"
    }
}
