/// An action the user can choose in a ``Message``: a button's title and role.
public struct MessageAction: Sendable, Hashable {
    /// What choosing the action does, for a view to style it (as SwiftUI's `ButtonRole`).
    public enum Role: Sendable, Hashable {
        /// An ordinary action.
        case `default`
        /// Dismisses without doing anything.
        case cancel
        /// Deletes or discards something.
        case destructive
    }

    /// The button's title.
    public var title: String
    /// The button's role.
    public var role: Role

    /// Creates an action.
    public init(title: String, role: Role = .default) {
        self.title = title
        self.role = role
    }

    /// "OK": acknowledges the message.
    public static let ok = MessageAction(title: "OK")
    /// "Cancel", with the cancel role.
    public static let cancel = MessageAction(title: "Cancel", role: .cancel)
}
