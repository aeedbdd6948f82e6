/// A mutation type whose mutations would not read back from the file as themselves (see
/// ``MutationDecoder/problem(storing:)``): ``Outbox/perform(_:)`` refuses them.
struct UnreadableMutationType: Error, CustomStringConvertible {
    /// The mutation's type.
    let type: Any.Type
    /// Its ``Mutation/mutationName``.
    let name: String
    /// The type given to the outbox that has the name, if any.
    let sharedWith: Any.Type?

    /// "Rename is not one of the outbox's mutation types (give it in `mutations:`)", or "Rename
    /// is stored under the name App.Rename, which Retitle has too: give one of them a
    /// mutationName of its own".
    var description: String {
        guard let sharedWith else {
            return "\(type) is not one of the outbox's mutation types (give it in `mutations:`)"
        }
        return "\(type) is stored under the name \(name), which \(sharedWith) has too: give one of them a "
            + "mutationName of its own"
    }
}
