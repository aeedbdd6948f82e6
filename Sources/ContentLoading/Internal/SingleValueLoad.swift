/// The call a single-value ``ContentProducer`` makes: a closure, or the model's own load
/// function with an input.
///
/// NB: the default producer carries only the input, type-erased (an input of up to three
/// words is stored inline), and the load task, specialised for the model's `Input`, calls the
/// model's typed load function with it: binding the two in a closure would be an allocation
/// on every refresh, and a type-erased function cost a cast and several async frames more.
/// Only the model's default ``ContentLoadingViewModel/producer(for:)`` makes a `modelLoad`,
/// from the model's own `Input`.
@usableFromInline enum SingleValueLoad<Output: Sendable>: Sendable {
    case closure(@Sendable () async throws -> Output)
    case modelLoad(input: any Sendable)
}
