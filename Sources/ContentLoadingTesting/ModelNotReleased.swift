/// A view model that was still alive when ``expectRelease(of:timeout:)`` stopped waiting.
public struct ModelNotReleased: Error, CustomStringConvertible {
    /// The model's type.
    public let model: String
    /// How long the wait lasted.
    public let timeout: Duration

    /// What was not released, and what usually holds a model.
    public var description: String {
        "\(model) was not released within \(timeout): something still holds it "
            + "(a RefreshHandle kept by the test, a Task that captures the model, a stored closure)"
    }
}
