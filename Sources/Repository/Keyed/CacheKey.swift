import Foundation

/// A key of a ``KeyedRepository``: any `Hashable & Sendable` value with a stable text form
/// for the disk tier.
///
/// An `Encodable` key gets its text form for free: its JSON with sorted keys, what a `Set` in it
/// holds sorted too, which is the same in every run and on every platform. `String` (its text, unquoted), `Int` and `UUID`
/// (its `uuidString`) conform here.
///
/// ```swift
/// struct SellerID: CacheKey, Codable { let rawValue: Int }     // {"rawValue":42}
/// struct SearchKey: CacheKey, Codable { let query: String; let page: Int }
/// ```
///
/// The disk tier stores a value under its repository's namespace (the value type's name) and
/// this text: `Swift.Array<App.Contact>|seller-7`.
///
/// - Important: Two keys that are equal must have the same ``persistentKey``, and two that
///   differ must not; a key whose text form changes between versions of an app reads as a miss.
public protocol CacheKey: Hashable, Sendable {
    /// The key's stable text form, under which the disk tier stores its value.
    var persistentKey: String { get }
}

extension CacheKey where Self: Encodable {
    /// The key's JSON, with sorted keys; what a `Set` in it holds (and a `Dictionary` whose keys
    /// encode as a list) sorted too.
    public var persistentKey: String {
        guard let text = try? sortedJSONText(self) else { return String(describing: self) }
        // NB: a set comes in the order of the process's hash seed, which changes from run to run
        // and between two equal sets.
        return (try? CanonicalJSON.text(of: self, sortedJSON: text.utf8)) ?? text
    }
}

extension CacheKey {
    /// The text form keys had before namespaces: the key's JSON when it is `Encodable` (a
    /// `String` quoted), else its ``persistentKey``. Entries stored under it are moved on read.
    var legacyPersistentKey: String {
        guard let encodable = self as? any Encodable else { return persistentKey }
        return (try? sortedJSONText(encodable)) ?? String(describing: self)
    }
}

extension String: CacheKey {
    /// The string itself.
    public var persistentKey: String { self }
}

extension Int: CacheKey {}

extension UUID: CacheKey {
    /// The UUID's `uuidString`.
    public var persistentKey: String { uuidString }
}
