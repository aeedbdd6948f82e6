/// A fetch answered "not modified" (HTTP 304) for a key with no cached value: the server
/// confirmed a value the repository does not hold. The next fetch of the key goes without
/// validators, so it gets the whole value.
public struct UnexpectedNotModified: Error, Sendable, CustomStringConvertible {
    /// The key's stable text form.
    public let key: String

    /// "the server answered 304 Not Modified for "42", but no value is cached for it; …".
    public var description: String {
        "the server answered 304 Not Modified for \(key), but no value is cached for it; "
            + "the next fetch asks for the whole value"
    }
}
