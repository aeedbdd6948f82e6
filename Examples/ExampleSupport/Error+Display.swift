import ContentLoadingSupport

extension Error {
    /// The error's description for a terminal line: control characters (from a server's
    /// body, a title, a file's schema) escaped, so it can neither forge a line nor drive the
    /// terminal.
    public var escapedDescription: String { String(describing: self).escapingControlCharacters }
}
