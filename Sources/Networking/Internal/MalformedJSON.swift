import Foundation

/// Explains why bytes are not valid JSON, with a line and column where possible.
///
/// NB: `JSONDecoder` on Linux reports only "The given data was not valid JSON", so on that
/// failure path (never on success) the bytes are parsed once more by `JSONSerialization`,
/// whose message names the offset.
enum MalformedJSON {
    static func reason(for data: Data, fallback: String) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return fallback
        } catch {
            let message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? fallback
            guard let offset = characterOffset(in: message) else { return message }
            let (line, column) = position(of: offset, in: data)
            return "\(message.trimmingCharacters(in: CharacterSet(charactersIn: "."))) (line \(line), column \(column))"
        }
    }

    /// The number in "… character 42 …", if the message has one.
    private static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// The 1-based line and column of byte `offset`.
    private static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
