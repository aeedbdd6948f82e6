import ContentLoadingSupport
import Foundation

extension APIError {
    /// Translates a `DecodingError` about `data` into an error naming the URL and the JSON path.
    init(_ error: DecodingError, data: Data, url: URL) {
        switch error {
        case .typeMismatch(let type, let context):
            self = .decoding(
                url: url, path: context.codingPath.jsonPath, expected: "\(type)", reason: context.debugDescription)
        case .valueNotFound(let type, let context):
            self = .decoding(
                url: url, path: context.codingPath.jsonPath, expected: "\(type)", reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            self = .decoding(
                url: url, path: (context.codingPath + [key]).jsonPath, expected: "a value for key '\(key.stringValue)'",
                reason: "the key is missing")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self = .malformedJSON(url: url, reason: MalformedJSON.reason(for: data, fallback: context.debugDescription))
        case .dataCorrupted(let context):
            self = .decoding(
                url: url, path: context.codingPath.jsonPath, expected: "a valid value", reason: context.debugDescription
            )
        @unknown default:
            self = .malformedJSON(url: url, reason: String(describing: error))
        }
    }
}
