extension TransportRequest {
    /// The name of the first header an HTTP transport cannot send as given (see
    /// ``APIError/invalidHeader(name:url:)``): a name that is not a token, or a value with a
    /// line break or a NUL; the validators are checked under the names they are sent with.
    /// `nil` when every header can go.
    var unsendableHeaderName: String? {
        var fields = headers.map { ($0.key, $0.value) }
        if let entityTag = validators.entityTag { fields.append(("If-None-Match", entityTag)) }
        if let lastModified = validators.lastModified { fields.append(("If-Modified-Since", lastModified)) }
        return fields.sorted { $0.0 < $1.0 }.first { name, value in
            !Self.isToken(name) || value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        }?.0
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
