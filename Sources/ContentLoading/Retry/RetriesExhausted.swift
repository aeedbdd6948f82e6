/// The last failure of a load that a ``RetryPolicy`` tried more than once.
///
/// Its message is the last error's, followed by how many attempts were made:
/// `HTTP 503 from https://api.example.com/contacts (3 attempts)`.
public struct RetriesExhausted: Error, Sendable, CustomStringConvertible {
    /// How many attempts were made.
    public let attempts: Int
    /// The last attempt's error.
    public let lastError: any Error

    /// The last error's message and the number of attempts.
    public var description: String { "\(lastError) (\(attempts) attempts)" }
}
