import Foundation

/// A value's JSON in one form whatever the order of its unordered parts: what a `Set` holds,
/// and a `Dictionary` whose keys encode as a list (any key type but `String`, `Int` and
/// `CodingKeyRepresentable` ones), comes in the order of the process's hash seed, which changes
/// from run to run and between two equal sets. Here those elements (and entries) are sorted by
/// their text, objects by their keys, and every value is written as `JSONEncoder` writes it.
/// Keys (``CacheKey/persistentKey``) and element rows use it, so an equal value is the same
/// text in every run.
enum CanonicalJSON {
    /// The canonical text of `value`, whose sorted JSON is `sortedJSON`, or `nil` when it holds
    /// nothing unordered (its sorted JSON is then canonical already).
    ///
    /// - Throws: What encoding `value` throws.
    static func text(of value: some Encodable, sortedJSON: some Sequence<UInt8>) throws -> String? {
        // NB: a set or a dictionary written as a list is in brackets: without one, the sorted
        // JSON is canonical, and nothing is encoded again.
        guard sortedJSON.contains(UInt8(ascii: "[")) else { return nil }
        // NB: then a walk that writes no text, which is most of the cost: most values hold no
        // set, and their sorted JSON is the answer.
        let walk = NodeEncoder(codingPath: [], context: EncodingContext(writesLeaves: false))
        _ = try walk.node(for: value)
        guard walk.context.sawUnordered else { return nil }
        return try NodeEncoder(codingPath: []).node(for: value).text
    }
}

/// One value of the key, as the encoder built it.
private final class Node {
    enum Order { case kept, sortedElements, sortedPairs }

    var fields: [String: Node]?
    var elements: [Node]?
    var leaf: String?
    var order = Order.kept

    var text: String {
        if let leaf { return leaf }
        // NB: a value that encoded nothing is an empty object, as JSONEncoder writes it.
        if fields == nil && elements == nil { return "{}" }
        if let fields {
            // NB: a string always encodes.
            let sorted = fields.map { (name: (try? sortedJSONText($0.key)) ?? "", value: $0.value.text) }
                .sorted { $0.name < $1.name }
            return "{" + sorted.map { "\($0.name):\($0.value)" }.joined(separator: ",") + "}"
        }
        var texts = (elements ?? []).map(\.text)
        switch order {
        case .kept: break
        case .sortedElements: texts.sort()
        case .sortedPairs:
            let pairs = stride(from: 0, to: texts.count - 1, by: 2).map { (texts[$0], texts[$0 + 1]) }
            texts = pairs.sorted { $0.0 < $1.0 }.flatMap { [$0.0, $0.1] }
        }
        return "[" + texts.joined(separator: ",") + "]"
    }
}

/// JSONEncoder's text of a single value (a string, a number, a date, data, a URL), as a key's
/// sorted JSON writes it.
///
/// - Throws: What JSONEncoder throws (a number that is not finite).
func sortedJSONText(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// The unordered collections, and how their encoded lists are sorted.
private protocol UnorderedEncodable { static var order: Node.Order { get } }
extension Set: UnorderedEncodable { fileprivate static var order: Node.Order { .sortedElements } }
extension Dictionary: UnorderedEncodable { fileprivate static var order: Node.Order { .sortedPairs } }

private final class EncodingContext {
    /// Whether the leaves' text is written (a walk that only looks for sets writes none).
    let writesLeaves: Bool
    var sawUnordered = false

    init(writesLeaves: Bool = true) { self.writesLeaves = writesLeaves }
}

/// Builds the ``Node`` of one value.
private struct NodeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var context = EncodingContext()
    let node = Node()
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The node of `value`, written where this encoder is.
    func node(for value: some Encodable) throws -> Node {
        if value is Date || value is Data || value is URL || value is Decimal {
            // NB: JSONEncoder writes these in forms of its own, not as they encode themselves.
            if context.writesLeaves { node.leaf = try sortedJSONText(value) }
            return node
        }
        try value.encode(to: self)
        if let unordered = type(of: value) as? any UnorderedEncodable.Type, node.elements != nil {
            node.order = unordered.order
            context.sawUnordered = true
        }
        return node
    }

    func child(_ key: (any CodingKey)?) -> NodeEncoder {
        NodeEncoder(codingPath: codingPath + (key.map { [$0] } ?? []), context: context)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.fields == nil { node.fields = [:] }
        return KeyedEncodingContainer(KeyedNodes(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedNodes(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNode(encoder: self) }
}

private struct KeyedNodes<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func add(_ key: Key) -> NodeEncoder {
        let child = encoder.child(key)
        encoder.node.fields?[key.stringValue] = child.node
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { add(key).node.leaf = "null" }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { _ = try add(key).node(for: value) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    { add(key).container(keyedBy: keyType) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        add(key).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { add(Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { add(key) }
}

private struct UnkeyedNodes: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements?.count ?? 0 }

    func add() -> NodeEncoder {
        let child = encoder.child(nil)
        encoder.node.elements?.append(child.node)
        return child
    }

    mutating func encodeNil() throws { add().node.leaf = "null" }
    mutating func encode<T: Encodable>(_ value: T) throws { _ = try add().node(for: value) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    { add().container(keyedBy: keyType) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { add().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { add() }
}

private struct SingleNode: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.leaf = "null" }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if value is String || value is Bool || value is any Numeric {
            // NB: JSONEncoder refuses a non-finite number: thrown, as it throws it.
            if encoder.context.writesLeaves { encoder.node.leaf = try sortedJSONText(value) }
        } else {
            let inner = try encoder.child(nil).node(for: value)
            (encoder.node.fields, encoder.node.elements, encoder.node.leaf, encoder.node.order) = (
                inner.fields, inner.elements, inner.leaf, inner.order
            )
        }
    }
}
