import ContentLoadingNetworking
import Foundation

/// A header given with `--header 'NAME: VALUE'`, sent with every request. Its value is a
/// secret: no description, message or dump shows it.
public struct RequestHeader: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The header's name, as given.
    public let name: String
    /// The header's value, without the spaces around it.
    public let value: String

    /// Reads `NAME: VALUE`.
    ///
    /// - Throws: ``UsageError`` naming what is wrong, never the value.
    public init(parsing argument: String) throws {
        guard let colon = argument.firstIndex(of: ":") else {
            throw UsageError(message: "--header needs 'NAME: VALUE', got an argument without a colon")
        }
        let name = String(argument[..<colon])
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy(tokenCharacters.contains) else {
            throw UsageError(message: "--header needs a NAME of letters, digits and -, before the colon")
        }
        let value = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UsageError(message: "--header \(name): the value holds a control character (a line break?)")
        }
        self.name = name
        self.value = value
    }

    /// `NAME: <redacted>`.
    public var description: String { "\(name): <redacted>" }

    /// What `dump` shows: the name only.
    public var customMirror: Mirror { Mirror(self, children: ["name": name]) }
}

/// Sends the `--header` headers with every request, and marks each of them secret.
struct RequestHeaderAdapter: RequestAdapter {
    let headers: [RequestHeader]

    var secretHeaderNames: Set<String> { Set(headers.map(\.name)) }

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        var request = request
        for header in headers { request.headers[header.name] = header.value }
        return request
    }
}
