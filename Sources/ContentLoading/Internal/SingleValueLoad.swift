/// The call a single-value ``ContentProducer`` makes: a closure, or a model's load function
/// with the input to call it with.
///
/// NB: the default producer pairs the refresh's input with the model's load function instead
/// of binding them in a closure, which would be an allocation on every refresh. The function
/// takes its input type-erased (an input of up to three words is stored inline), and only
/// ``ContentProducer/load(_:with:)`` pairs the two, from the same `Input` type.
@usableFromInline enum SingleValueLoad<Output: Sendable>: Sendable {
    case closure(@Sendable () async throws -> Output)
    case bound(input: any Sendable, load: @MainActor @Sendable (any Sendable) async throws -> Output)
}

/// A load function that takes its input type-erased; a model makes one for its lifetime.
///
/// NB: the erasing closure runs on the main actor, where the load task calls it, so it adds
/// no executor hop: the load function runs where it would have run if called directly.
struct ErasedLoad<Input: Sendable, Output: Sendable>: Sendable {
    let function: @MainActor @Sendable (any Sendable) async throws -> Output

    init(_ typed: @escaping @Sendable (Input) async throws -> Output) {
        function = { @MainActor input in
            // NB: unreachable: `ContentProducer.load(_:with:)` pairs only an `Input` with this.
            guard let input = input as? Input else { preconditionFailure("\(type(of: input)) is not \(Input.self)") }
            return try await typed(input)
        }
    }
}
