/// A failure of a ``KeyedRepository``'s disk tier, naming the file and the key.
public struct CacheError: Error, Sendable, CustomStringConvertible {
    /// What was being done: "read", "decode", "write", "remove".
    public let operation: String
    /// The disk tier's file.
    public let path: String
    /// The key's stable text form.
    public let key: String
    /// What went wrong.
    public let reason: String

    /// "cannot write cache entry "42" in /path/cache.sqlite: disk is full".
    public var description: String {
        "cannot \(operation) cache entry \(key) in \(path): \(reason)"
    }

    /// What `error` says went wrong, for a cache error's reason: an SQLite failure with its
    /// code, an element that does not decode or encode with its id, a value that does not
    /// encode with the JSON path where it stopped, else the error itself.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as SQLiteError: "\(error.message) (SQLite error \(error.code))"
        case let error as ElementRowsProblem: error.reason
        case let error as ElementEncodingFailure: error.reason
        case let error as EncodingError: "the value does not encode (\(error.whereAndWhy))"
        default: "\(error)"
        }
    }
}
