import ContentLoading
import Foundation

/// What a fetch that found a cached value unchanged (a 304, or an equal value) confirms in a
/// ``PersistentTier``: the stored entry it compared, and the age and validators that entry
/// takes from now.
struct Confirmation: Sendable {
    /// The version of the value the fetch compared.
    let expected: UInt64
    /// The validators the fetch sent, which the server said are current; `.none` when the
    /// fetch compared values.
    let sent: Validators
    /// The new write time: the value's age starts again.
    let writtenAt: Date
    /// The validators of the response.
    let validators: Validators

    /// The stored entry is the one the fetch confirmed when it is still the one written at
    /// ``expected``, or when it carries the validators the fetch sent (its version moved
    /// because elements of it were edited, which a 304 for the whole leaves as they are).
    /// The SQL for that, over a row's `version`, `entity_tag` and `last_modified`, with the
    /// expected version, the sent entity tag and the sent date bound at `first`, `first + 1` and
    /// `first + 2`.
    static func matchesStored(from first: Int32) -> String {
        let (version, tag, date) = (first, first + 1, first + 2)
        return """
            (version = ?\(version) OR (?\(tag) IS NOT NULL AND entity_tag = ?\(tag))
                OR (?\(tag) IS NULL AND ?\(date) IS NOT NULL AND last_modified = ?\(date)))
            """
    }

    /// Binds ``expected`` and the sent validators for ``matchesStored(from:)``.
    func bindMatch(to statement: SQLiteStatement, at first: Int32) throws {
        try statement.bind(Int(clamping: expected), at: first)
        try statement.bind(sent.entityTag, at: first + 1)
        try statement.bind(sent.lastModified, at: first + 2)
    }
}
