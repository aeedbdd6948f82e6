/// What of a stored list (or page) could not be served: elements whose rows do not decode,
/// and elements the list holds whose rows are missing from the file. The rest is served.
struct ElementRowsProblem: Error {
    /// The ids whose rows do not decode.
    var undecodable: [String] = []
    /// The first of their decoding errors.
    var decodingError: (any Error)?
    /// The ids the list holds (membership rows) with no element row.
    var missing: [String] = []
    /// The element type.
    let type: Any.Type

    /// Every id named: their rows (and membership rows) can go, as no read can use them.
    var ids: [String] { undecodable + missing }

    /// The operation a ``CacheError`` names: "decode" when a row does not decode, else "read".
    var operation: String { undecodable.isEmpty ? "read" : "decode" }

    /// "its element 4 does not decode as Contact (…); its element 7 is missing from the file;
    /// the rest is served".
    var reason: String {
        var parts: [String] = []
        if let first = undecodable.first {
            let error = decodingError.map { "\($0)" } ?? "unknown error"
            parts.append(
                undecodable.count == 1
                    ? "its element \(first) does not decode as \(type) (\(error))"
                    : "its elements \(undecodable.joined(separator: ", ")) do not decode as \(type) (the first: \(error))"
            )
        }
        if let first = missing.first {
            parts.append(
                missing.count == 1
                    ? "its element \(first) is missing from the file"
                    : "its elements \(missing.joined(separator: ", ")) are missing from the file")
        }
        return (parts + ["the rest is served"]).joined(separator: "; ")
    }
}
