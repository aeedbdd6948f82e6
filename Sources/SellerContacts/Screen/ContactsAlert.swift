/// An alert the contacts screen presents: a message and exactly one "OK" action.
public struct ContactsAlert: Sendable, Hashable {
    /// An alert button.
    public struct Action: Sendable, Hashable {
        /// The button's title.
        public let title: String

        /// The one action: dismiss the alert.
        public static let ok = Action(title: "OK")
    }

    /// The alert's title.
    public let title: String
    /// What went wrong, from the error's message.
    public let message: String
    /// The buttons; always exactly ``Action/ok``.
    public let actions: [Action]

    /// An alert for a failed load.
    public init(error: any Error) {
        title = "Could not load contacts"
        message = "\(error)"
        actions = [.ok]
    }
}
