import Foundation

/// A `Decoder` over the tree `JSONSerialization` parses, used only to explain a failure.
///
/// NB: Linux's `JSONDecoder` reports a number that does not fit its type (`1.5` or `1e30` for
/// an `Int`) as "The given data was not valid JSON" with no coding path. When the bytes are
/// valid JSON, ``locateFailure(decoding:from:)`` decodes the same type again over the parsed
/// tree, where every failure carries its coding path and the expected type.
struct JSONTreeDecoder: Decoder {
    let value: Any
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The failure that decoding `type` from the valid JSON `data` meets, with its path; `nil`
    /// when `data` is not valid JSON or the tree decodes (then there is nothing to add).
    static func locateFailure<T: Decodable>(decoding type: T.Type, from data: Data) -> DecodingError? {
        guard let tree = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        do {
            _ = try T(from: JSONTreeDecoder(value: tree, codingPath: []))
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            return nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let object = value as? [String: Any] else { throw mismatch([String: Any].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let array = value as? [Any] else { throw mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

extension JSONTreeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value is NSNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type, value, codingPath) }
}

/// Decodes `value` as `type`: scalars exactly (no rounding, no overflow), anything else
/// through its own `init(from:)`.
private func decodeValue<T: Decodable>(_ type: T.Type, _ value: Any, _ path: [any CodingKey]) throws -> T {
    if value is NSNull, !(T.self is any ExpressibleByNilLiteral.Type) {
        throw DecodingError.valueNotFound(
            type, DecodingError.Context(codingPath: path, debugDescription: "Expected \(type) but found null"))
    }
    switch type {
    case is Bool.Type:
        guard isBoolean(value), let bool = value as? Bool else { throw mismatch(type, value, path) }
        return bool as! T
    case is String.Type:
        guard let string = value as? String else { throw mismatch(type, value, path) }
        return string as! T
    case let integer as any FixedWidthInteger.Type:
        guard !isBoolean(value), let number = value as? NSNumber,
            let exact = integer.init(number.stringValue, radix: 10)
        else { throw mismatch(type, value, path) }
        return exact as! T
    case let floating as any BinaryFloatingPoint.Type:
        guard !isBoolean(value), let number = value as? NSNumber else { throw mismatch(type, value, path) }
        return floating.init(number.doubleValue) as! T
    default:
        return try T(from: JSONTreeDecoder(value: value, codingPath: path))
    }
}

/// Whether a parsed value is `true` or `false`.
///
/// NB: `JSONSerialization` gives numbers and booleans as `NSNumber`, and `is Bool` holds for
/// any `NSNumber` of 0 or 1; a boolean's `objCType` is `c` (a C `char`).
private func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return value is Bool }
    return String(cString: number.objCType) == "c"
}

private func mismatch(_ type: Any.Type, _ value: Any, _ path: [any CodingKey]) -> DecodingError {
    let found: String
    switch value {
    case is NSNull: found = "null"
    case _ where isBoolean(value): found = "a boolean"
    case let number as NSNumber: found = "the number \(number.stringValue)"
    case is String: found = "a string"
    case is [Any]: found = "an array"
    default: found = "an object"
    }
    return .typeMismatch(
        type, DecodingError.Context(codingPath: path, debugDescription: "Expected \(type) but found \(found)"))
}

/// A coding key for an array position.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: Any]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }
    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(_ key: Key) throws -> Any {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value for key"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) is NSNull }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeValue(type, try value(key), codingPath + [key])
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try JSONTreeDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONTreeDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { JSONTreeDecoder(value: object, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTreeDecoder(value: try value(key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let array: [Any]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(array: [Any], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private mutating func next() throws -> (Any, [any CodingKey]) {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: path, debugDescription: "Unkeyed container is at end"))
        }
        defer { currentIndex += 1 }
        return (array[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex] is NSNull else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try decodeValue(type, value, path)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next()
        return try JSONTreeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try JSONTreeDecoder(value: value, codingPath: path).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return JSONTreeDecoder(value: value, codingPath: path)
    }
}
