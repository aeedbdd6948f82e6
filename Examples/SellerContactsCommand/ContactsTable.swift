import ContentLoadingSupport
import SellerContacts

/// Renders contacts as a plain-text table with the columns order, phone and address.
public enum ContactsTable {
    /// The table, one line per contact after a header and a rule; a missing value shows as `—`.
    public static func render(_ contacts: [SellerContacts]) -> String {
        let header = ["order", "phone", "address"]
        // NB: the fields come from a server: escaped, so a row stays one line of plain text.
        let rows = contacts.map {
            [
                String($0.order), ($0.phone ?? "—").escapingControlCharacters,
                ($0.address ?? "—").escapingControlCharacters,
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                .joined(separator: "  ")
                .trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
