/// What of a stored list (or page) could not be served as it is: elements whose rows do not
/// decode, elements the list holds whose rows are missing from the file, and ids held twice
/// (in the list, or on two pages of a paged list). The rest is served.
struct ElementRowsProblem: Error {
    /// The ids whose rows do not decode.
    var undecodable: [String] = []
    /// The first of their decoding errors.
    var decodingError: (any Error)?
    /// The ids the list holds (membership rows) with no element row.
    var missing: [String] = []
    /// The ids the list (or page) holds more than once: the first is served.
    var repeated: [String] = []
    /// The ids of a page that another page of its list holds too: the list shows the first.
    var onOtherPages: [String] = []
    /// The element type.
    let type: Any.Type

    /// Every id whose row can go, as no read can use it (one held twice is fine).
    var ids: [String] { undecodable + missing }

    /// Whether anything could not be served as it is.
    var isEmpty: Bool { ids.isEmpty && repeated.isEmpty && onOtherPages.isEmpty }

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
        parts += [
            Self.clause(missing, one: "is missing from the file", many: "are missing from the file"),
            Self.clause(
                repeated, one: "is held twice (the first is served)",
                many: "are held twice (the first of each is served)"),
            Self.clause(
                onOtherPages, one: "is on another page of the list too (the list shows it once, where it is first)",
                many: "are on other pages of the list too (the list shows each once, where it is first)"),
        ].compactMap { $0 }
        return (parts + ["the rest is served"]).joined(separator: "; ")
    }

    /// "its element 7 `one`", "its elements 7, 9 `many`", or `nil` for no ids.
    private static func clause(_ ids: [String], one: String, many: String) -> String? {
        guard let first = ids.first else { return nil }
        return ids.count == 1 ? "its element \(first) \(one)" : "its elements \(ids.joined(separator: ", ")) \(many)"
    }
}
