import Foundation

/// Elements to and from their rows: one encoding, one decoding, for lists and pages alike.
extension ElementStore {
    /// `elements` encoded for their rows, each under its id's stable text form.
    func encoded(_ elements: [Element]) throws -> [DiskCache.EncodedElement] {
        let encoder = JSONEncoder()
        return try elements.map { DiskCache.EncodedElement(id: $0.id.persistentKey, data: try encoder.encode($0)) }
    }

    /// The elements whose ids `ids` (encoded) lists, in that order, from their stored `rows`;
    /// an id the store no longer holds is left out.
    ///
    /// - Throws: ``ElementUndecodable`` naming the element whose row does not decode.
    func decoded(ids: Data, rows: [String: Data]) throws -> [Element] {
        let decoder = JSONDecoder()
        return try decoder.decode([String].self, from: ids).compactMap { id in
            guard let row = rows[id] else { return nil }
            do {
                return try decoder.decode(Element.self, from: row)
            } catch {
                throw ElementUndecodable(id: id, type: Element.self, error: error)
            }
        }
    }

    /// `elements` with each one a later write kept in the file (`kept`, by id) in its place.
    func keeping(_ kept: [String: Data], in elements: [Element]) -> [Element] {
        guard !kept.isEmpty else { return elements }
        let decoder = JSONDecoder()
        return elements.map { element in
            kept[element.id.persistentKey].flatMap { try? decoder.decode(Element.self, from: $0) } ?? element
        }
    }
}
