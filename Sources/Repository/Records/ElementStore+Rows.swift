import Foundation

/// Elements to and from their rows: one encoding, one decoding, for lists and pages alike.
extension ElementStore {
    /// `elements` encoded for their rows, each under its id's stable text form.
    func encoded(_ elements: [Element]) throws -> [DiskCache.EncodedElement] {
        let encoder = JSONEncoder()
        return try elements.map { DiskCache.EncodedElement(id: $0.id.persistentKey, data: try encoder.encode($0)) }
    }

    /// The elements whose ids `ids` (encoded) lists, in that order, from their stored `rows`;
    /// an id the store no longer holds is left out, and so is one whose row does not decode,
    /// named in `undecodable`.
    ///
    /// - Throws: When `ids` itself does not decode.
    func decoded(ids: Data, rows: [String: Data]) throws -> (elements: [Element], undecodable: ElementUndecodable?) {
        let decoder = JSONDecoder()
        var undecodable: ElementUndecodable?
        let elements = try decoder.decode([String].self, from: ids).compactMap { id -> Element? in
            guard let row = rows[id] else { return nil }
            do {
                return try decoder.decode(Element.self, from: row)
            } catch {
                undecodable = ElementUndecodable(ids: (undecodable?.ids ?? []) + [id], type: Element.self, error: error)
                return nil
            }
        }
        return (elements, undecodable)
    }

    /// Removes the rows of the elements `undecodable` names, which no read can use: the lists
    /// keep their ids, and a read leaves them out until a fetch or a save stores them again.
    func removeRows(of undecodable: ElementUndecodable) async {
        for id in undecodable.ids { _ = try? await disk.removeElement(type: type, id: id) }
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
