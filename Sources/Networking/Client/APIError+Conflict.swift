import ContentLoading

extension APIError: WriteConflictError {
    /// The server's current representation and ETag for ``conflict(url:status:body:entityTag:)``
    /// (a `412` or `409`); `nil` for every other case.
    public var writeConflict: WriteConflict? {
        guard case .conflict(_, _, let body, let entityTag) = self else { return nil }
        return WriteConflict(body: body, entityTag: entityTag)
    }
}
