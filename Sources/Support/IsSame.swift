/// Whether `first` and `second` are equal, when their type is `Equatable`; `false` otherwise
/// (a value that cannot be compared counts as changed).
package func isSame<Value>(_ first: Value, _ second: Value) -> Bool {
    guard let first = first as? any Equatable else { return false }
    return first.isEqual(to: second)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self).map { $0 == self } ?? false }
}
