import Foundation

/// Elements to and from their rows: one encoding, one decoding, for lists and pages alike.
extension ElementStore {
    /// The encoder of every element row: keys sorted, so one value is always the same bytes
    /// (the file keeps an element's entity tag while its server value's bytes stay the same).
    static func rowEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// `element` encoded for its row.
    static func encoded(_ element: Element) throws -> Data { try encoded(element, by: rowEncoder()) }

    /// `element` encoded for its row by `encoder`: its sorted JSON, what a `Set` in it holds
    /// sorted too (``CanonicalJSON``), so that an equal value is the same bytes after a relaunch.
    private static func encoded(_ element: Element, by encoder: JSONEncoder) throws -> Data {
        let data = try encoder.encode(element)
        guard let canonical = try CanonicalJSON.text(of: element, sortedJSON: data) else { return data }
        return Data(canonical.utf8)
    }

    /// `elements` encoded for their rows, each under its id's stable text form.
    ///
    /// - Throws: ``ElementEncodingFailure`` naming the first element that does not encode.
    func encoded(_ elements: [Element]) throws -> [DiskCache.EncodedElement] {
        let encoder = Self.rowEncoder()
        return try elements.map { element in
            let id = element.id.persistentKey
            do {
                return DiskCache.EncodedElement(id: id, data: try Self.encoded(element, by: encoder))
            } catch {
                throw ElementEncodingFailure(id: id, type: Element.self, error: error)
            }
        }
    }

    /// The elements whose ids `ids` (encoded) lists, in that order, from their stored `rows`
    /// (`nil`: held, with no row). An id the list no longer holds (the element was removed) is
    /// left out; so is one whose row is missing or does not decode, and one listed again after
    /// its first place, named in `problem`.
    ///
    /// - Throws: When `ids` itself does not decode.
    func decoded(ids: Data, rows: [String: Data?]) throws -> (elements: [Element], problem: ElementRowsProblem?) {
        let decoder = JSONDecoder()
        var problem = ElementRowsProblem(type: Element.self)
        var served = Set<String>()
        let elements = try decoder.decode([String].self, from: ids).compactMap { id -> Element? in
            guard let held = rows[id] else { return nil }
            guard served.insert(id).inserted else {
                problem.repeated.append(id)
                return nil
            }
            guard let row = held else {
                problem.missing.append(id)
                return nil
            }
            do {
                return try decoder.decode(Element.self, from: row)
            } catch {
                problem.undecodable.append(id)
                if problem.decodingError == nil { problem.decodingError = error }
                return nil
            }
        }
        return (elements, problem.isEmpty ? nil : problem)
    }

    /// Removes the rows of the elements `problem` names, which no read can use (and the
    /// membership rows that hold them): the lists keep their ids, and a read leaves them out,
    /// without an error, until a fetch or a save stores them again. `rows` are the rows the read
    /// found, by id: a row written since the read stays.
    func removeRows(of problem: ElementRowsProblem, found rows: [String: Data?]) async {
        for id in problem.undecodable {
            guard case .some(.some(let data)) = rows[id] else { continue }
            try? await disk.removeUnusableElement(type: type, id: id, found: .value(data))
        }
        for id in problem.missing { try? await disk.removeUnusableElement(type: type, id: id, found: .missing) }
    }

    /// `elements` with each one a later write kept in the file (`kept`, by id) in its place,
    /// and those removed since (`removed`, by id) left out.
    func keeping(_ kept: [String: Data], removing removed: Set<String> = [], in elements: [Element]) -> [Element] {
        guard !kept.isEmpty || !removed.isEmpty else { return elements }
        let decoder = JSONDecoder()
        return elements.compactMap { element in
            let id = element.id.persistentKey
            guard !removed.contains(id) else { return nil }
            return kept[id].flatMap { try? decoder.decode(Element.self, from: $0) } ?? element
        }
    }
}
