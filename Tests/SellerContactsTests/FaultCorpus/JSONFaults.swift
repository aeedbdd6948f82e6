import Foundation
import Testing

/// One malformed (or merely unusual) body for the seller-contacts endpoint, and what must
/// become of it.
struct JSONFault: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// Decoded: this many contacts.
        case accepted(contacts: Int)
        /// An error whose message holds each of these.
        case rejected(mentioning: [String])
    }

    let name: String
    let body: Data
    let outcome: Outcome

    var testDescription: String { name }
}

/// The generated corpus: truncations at every byte, a wrong type for every field, nulls,
/// numbers that do not fit, deep nesting, a document over the size limit, invalid UTF-8, a
/// BOM, the wrong root, duplicate keys and duplicate ids.
enum JSONFaults {
    /// Three contacts, compact.
    static let valid =
        #"[{"order":1,"phone":"+1 555 0101","address":"1 First Avenue"},"#
        + #"{"order":2,"phone":"+1 555 0102","address":"2 Second Street"},"#
        + #"{"order":3,"phone":null,"address":"3 Third Road"}]"#

    static func all() -> [JSONFault] {
        truncations() + wrongTypes() + numbers() + shapes() + encodings()
    }

    /// The document cut after every byte: never valid, always "malformed JSON".
    static func truncations() -> [JSONFault] {
        let bytes = Array(valid.utf8)
        return (1..<bytes.count).map { length in
            JSONFault(
                name: "cut after \(length) bytes", body: Data(bytes.prefix(length)),
                outcome: .rejected(mentioning: ["malformed JSON at"]))
        }
    }

    /// Every field of every contact given a value of the wrong type, and `null` for `order`.
    static func wrongTypes() -> [JSONFault] {
        let wrongForOrder = [#""1""#, "true", "{}", "[]", "null"]
        let wrongForText = ["5", "true", "{}", "[]"]
        var faults: [JSONFault] = []
        for index in 0..<3 {
            for (field, wrongs) in [("order", wrongForOrder), ("phone", wrongForText), ("address", wrongForText)] {
                for wrong in wrongs {
                    faults.append(
                        JSONFault(
                            name: "$[\(index)].\(field) = \(wrong)", body: replacing(field, in: index, with: wrong),
                            outcome: .rejected(mentioning: ["$[\(index)].\(field)"])))
                }
            }
        }
        return faults
    }

    /// Orders that are numbers but not an `Int`.
    static func numbers() -> [JSONFault] {
        let misfits = [
            "1.5", "-0.5", "2.0000001", "1e30", "9223372036854775808", "-9223372036854775809",
            "1" + String(repeating: "0", count: 40),
        ]
        return misfits.map { number in
            JSONFault(
                name: "$[1].order = \(number)", body: replacing("order", in: 1, with: number),
                outcome: .rejected(mentioning: ["$[1].order", "expected Int"]))
        } + [
            JSONFault(
                name: "$[1].order = 1e400", body: replacing("order", in: 1, with: "1e400"),
                outcome: .rejected(mentioning: ["malformed JSON at", "1e400"]))
        ]
    }

    /// The wrong root, deep nesting, repeats, and a document over the size limit.
    static func shapes() -> [JSONFault] {
        let depth = 10_000
        return [
            fault("an object instead of an array", #"{"order":1}"#, .rejected(mentioning: ["expected Array", "at $"])),
            fault("null at the root", "null", .rejected(mentioning: ["at $"])),
            fault("a string at the root", #""contacts""#, .rejected(mentioning: ["at $"])),
            fault("an empty array", "[]", .accepted(contacts: 0)),
            fault("whitespace only", "  \n ", .rejected(mentioning: ["malformed JSON at"])),
            fault("an empty body", "", .rejected(mentioning: ["empty response body"])),
            fault(
                "10,000 nested arrays", String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
                .rejected(mentioning: ["malformed JSON at", "nested"])),
            fault(
                "10,000 nested objects",
                String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth),
                .rejected(mentioning: ["malformed JSON at", "nested"])),
            fault("duplicate keys (one is kept)", #"[{"order":1,"order":1,"phone":"x"}]"#, .accepted(contacts: 1)),
            fault(
                "duplicate ids", #"[{"order":1},{"order":2},{"order":2}]"#,
                .rejected(mentioning: ["$[2].order", "order 2 is also at $[1]"])),
            JSONFault(
                name: "a 50 MB document", body: fiftyMegabytes(),
                outcome: .rejected(mentioning: ["larger than the limit of 32 MiB"])),
        ]
    }

    /// Bytes that are not UTF-8, and a byte-order mark.
    static func encodings() -> [JSONFault] {
        let invalid: [(String, [UInt8])] = [
            ("a lone 0xFF", [0xFF]), ("a cut two-byte character", [0xC3]), ("an overlong slash", [0xC0, 0xAF]),
            ("a surrogate half", [0xED, 0xA0, 0x80]), ("a NUL byte outside a string", [0x00]),
        ]
        let prefix = Array(#"[{"order":1,"phone":""#.utf8)
        let suffix = Array(#""}]"#.utf8)
        return invalid.map { name, bytes in
            JSONFault(
                name: "invalid UTF-8: \(name)",
                body: Data(
                    bytes == [0x00]
                        ? Array(#"[{"order":1}"#.utf8) + bytes + [UInt8(ascii: "]")] : prefix + bytes + suffix),
                outcome: .rejected(mentioning: ["malformed JSON at"]))
        } + [
            JSONFault(
                name: "a UTF-8 byte-order mark", body: Data([0xEF, 0xBB, 0xBF]) + Data(valid.utf8),
                outcome: .accepted(contacts: 3))
        ]
    }

    // MARK: - Helpers

    private static func fault(_ name: String, _ body: String, _ outcome: JSONFault.Outcome) -> JSONFault {
        JSONFault(name: name, body: Data(body.utf8), outcome: outcome)
    }

    /// The valid document with `field` of contact `index` set to the JSON text `value`.
    private static func replacing(_ field: String, in index: Int, with value: String) -> Data {
        var contacts = try! JSONSerialization.jsonObject(with: Data(valid.utf8)) as! [[String: Any]]
        contacts[index][field] = "\u{0}PLACEHOLDER\u{0}"
        let text = String(
            decoding: try! JSONSerialization.data(withJSONObject: contacts, options: [.sortedKeys]), as: UTF8.self)
        return Data(text.replacingOccurrences(of: #""\u0000PLACEHOLDER\u0000""#, with: value).utf8)
    }

    /// A valid contacts array of about 50 MB, over the default 32 MiB body limit.
    private static func fiftyMegabytes() -> Data {
        let contact =
            #"{"order":ORDER,"phone":"+1 555 0100","address":"# + "\"" + String(repeating: "x", count: 460) + "\"}"
        var body = Data("[".utf8)
        body.reserveCapacity(52_000_000)
        for order in 0..<100_000 {
            if order > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: contact.replacingOccurrences(of: "ORDER", with: String(order)).utf8)
        }
        body.append(UInt8(ascii: "]"))
        return body
    }
}
