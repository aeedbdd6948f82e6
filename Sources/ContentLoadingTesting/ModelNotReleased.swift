/// A view model that was still alive when ``expectRelease(of:timeout:)`` stopped waiting.
public struct ModelNotReleased: Error, CustomStringConvertible {
    /// The model's type.
    public let model: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// Whether the model, a subclass, was still loading when the wait gave up: an overridden
    /// `load(_:)` is a method call on the model, which keeps it alive until it returns.
    public let isLoading: Bool

    init(model: String, timeout: Duration, isLoading: Bool) {
        self.model = model
        self.timeout = timeout
        self.isLoading = isLoading
    }

    /// What was not released, and what holds it: the running load first when a subclass was
    /// still loading, then the usual holders.
    public var description: String {
        let load =
            isLoading
            ? "its load is still running, and an overridden load(_:) keeps its model alive until it returns "
                + "(cancel() the model first, give the load a deadline, or make the model with init(load:), "
                + "whose closure does not hold it); or "
            : ""
        return "\(model) was not released within \(timeout): \(load)something still holds it "
            + "(a RefreshHandle kept by the test, a Task that captures the model, a stored closure)"
    }
}
