import Foundation

/// The name a type's values are stored under in the file: `String(reflecting:)`, without the
/// address the runtime prints for a `private` or local context (`(unknown context at
/// $55ef9f30c118)`), which changes at every launch: `App.(private).Contact`.
///
/// With the address, a repository, element store or mutation of a type declared `private` (or
/// inside a function, or inside such a type) found nothing it stored after a relaunch, and an
/// outbox set its pending mutations aside as unknown. Without it, two such types of one name
/// in one module share the name.
func storedTypeName(_ type: Any.Type) -> String {
    let name = String(reflecting: type)
    let marker = "(unknown context at $"
    guard name.contains(marker) else { return name }
    var stable = ""
    var rest = Substring(name)
    while let range = rest.range(of: marker) {
        stable += rest[..<range.lowerBound]
        guard let close = rest[range.upperBound...].firstIndex(of: ")") else { break }
        stable += "(private)"
        rest = rest[rest.index(after: close)...]
    }
    return stable + rest
}
