import Foundation

/// What writing a fetched page did, and the elements of a page with no place among the stored
/// pages: those the file holds for other lists are written all the same.
extension DiskCache {
    /// What ``writePage(_:previousCursor:nextCursor:elements:type:of:at:fetchedAt:validators:keepingWritesAfter:)``
    /// wrote.
    struct WrittenPage: Sendable {
        /// The version of the write.
        let version: UInt64
        /// The stored data of the elements kept over the fetched ones (written after the fetch
        /// started), by id.
        let kept: [String: Data]
        /// The ids left out as removed after the fetch started (see `DiskCache+Removals.swift`).
        let removed: Set<String>
        /// The ids of the page that another stored page of the list holds too.
        let onOtherPages: [String]
        /// `nil` when the page was stored; otherwise it had no place (no stored page asks for
        /// it) and only these of its elements, which the file held, were written.
        let elementsOnly: Set<String>?
    }

    /// Writes those of `elements` that the file holds (for other lists), as a fetch of them
    /// does, for a page that is not stored; inside a transaction. Those removed since `started`
    /// are left out, as from a stored page. `nil` when it holds none, and none went.
    func writeHeldElements(
        _ elements: [EncodedElement], type: String, writtenAt: Date, keepingWritesAfter started: UInt64?
    ) throws -> WrittenPage? {
        let removedSince = try started.map { try removedElements(of: type, after: $0) } ?? .none
        let select = try database.prepare(
            "SELECT 1 FROM content_loading_elements WHERE type = ? AND id = ?", operation: "write the cache in")
        let held = try elements.filter { element in
            try select.reset()
            try select.bind(type, at: 1)
            try select.bind(element.id, at: 2)
            return try select.step() || removedSince.contains(element.id)
        }
        guard !held.isEmpty else { return nil }
        let version = try advanceVersion()
        let written = try upsertElements(
            held, type: type, version: version, writtenAt: writtenAt, keepingWritesAfter: started)
        return WrittenPage(
            version: version, kept: written.kept, removed: written.removed, onOtherPages: [],
            elementsOnly: Set(held.map(\.id)))
    }
}
