extension TransportRequest {
    /// The header fields an HTTP transport sends beside its own: ``headers``, then the
    /// validators under their header names (`If-None-Match`, `If-Modified-Since`).
    var headerFields: [(name: String, value: String)] {
        var fields = headers.map { (name: $0.key, value: $0.value) }
        if let entityTag = validators.entityTag { fields.append(("If-None-Match", entityTag)) }
        if let lastModified = validators.lastModified { fields.append(("If-Modified-Since", lastModified)) }
        return fields
    }

    /// The name of the first header field (``headerFields``, by name) an HTTP transport cannot
    /// send as given (see ``APIError/invalidHeader(name:url:)``): a name that is not a token,
    /// or a value with a line break or a NUL. `nil` when every field can go.
    var unsendableHeaderName: String? {
        headerFields.sorted { $0.name < $1.name }.first { name, value in
            !Self.isToken(name) || value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        }?.name
    }

    /// Whether `name` is an HTTP token (RFC 9110, 5.6.2), as every header name must be.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
