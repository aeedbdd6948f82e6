extension String {
    /// The text with every control character escaped, so that text from outside (a server's
    /// body, a JSON field, a file name) printed on a terminal stays on its line and cannot
    /// send escape sequences: `\n`, `\r`, `\t` and `\\u{1B}`-style escapes replace C0 and C1
    /// controls, DEL and the bidirectional overrides (which can make text read backwards).
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.needsEscaping) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.needsEscaping:
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    fileprivate var needsEscaping: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
