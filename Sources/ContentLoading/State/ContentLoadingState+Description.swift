extension ContentLoadingState: CustomStringConvertible {
    /// A short description such as `loading(previous: nil)` or `error(HTTP 404 …)`.
    public var description: String {
        switch self {
        case .unloaded: "unloaded"
        case .loading(let previous): "loading(previous: \(previous.map { "\($0)" } ?? "nil"))"
        case .empty: "empty"
        case .success(let value): "success(\(value))"
        case .error(let error, let previous):
            "error(\(error), previous: \(previous.map { "\($0)" } ?? "nil"))"
        }
    }
}
