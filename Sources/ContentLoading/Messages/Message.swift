/// Something a screen tells the user: a title, a message and the actions they can choose,
/// "OK" by default. A view presents it as an alert; ``MessagePresenter`` holds the one shown.
///
/// ```swift
/// let failed = Message(error: error, title: "Could not load contacts")
/// let confirm = Message(
///     title: "Delete the contact?", message: "This cannot be undone.",
///     actions: [MessageAction(title: "Delete", role: .destructive), .cancel])
/// ```
public struct Message: Sendable, Hashable {
    /// The title.
    public var title: String
    /// The text under the title.
    public var message: String
    /// The actions, in the order a view shows them.
    public var actions: [MessageAction]

    /// Creates a message; with one ``MessageAction/ok`` action unless told otherwise.
    public init(title: String, message: String, actions: [MessageAction] = [.ok]) {
        self.title = title
        self.message = message
        self.actions = actions
    }

    /// A message for `error`: its description as the text, and one "OK" action.
    public init(error: any Error, title: String = "Something went wrong") {
        self.init(title: title, message: "\(error)")
    }
}
