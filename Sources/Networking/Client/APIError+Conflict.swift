import ContentLoading

extension APIError: WriteConflictError {
    /// The server's current representation and ETag for ``conflict(url:status:body:entityTag:)``
    /// (a `412` or `409`), also when it is the ``failure`` of a
    /// ``request(method:isRepeatable:failure:)`` (as every write's is); `nil` for every other case.
    public var writeConflict: WriteConflict? {
        guard case .conflict(_, _, let body, let entityTag) = failure else { return nil }
        return WriteConflict(body: body, entityTag: entityTag)
    }
}
