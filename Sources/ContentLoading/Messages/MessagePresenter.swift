import Observation

/// Holds the message a screen presents: at most one at a time, observable, with the user's
/// choice that dismisses it. Any screen can bind errors to one (see
/// `AsyncSequence.values(presentingErrorsOn:as:)`).
///
/// ```swift
/// // SwiftUI (Apple platforms):
/// .alert(presenter.presented?.title ?? "", isPresented: .constant(presenter.presented != nil),
///        presenting: presenter.presented) { message in
///     ForEach(message.actions, id: \.self) { action in
///         Button(action.title) { presenter.dismiss(choosing: action) }
///     }
/// } message: { Text($0.message) }
/// ```
@MainActor
@Observable
public final class MessagePresenter {
    /// The message presented now, if any.
    public private(set) var presented: Message?
    /// How many messages were presented so far (a newer one replaces the one shown).
    public private(set) var presentedCount = 0

    /// Creates a presenter with nothing presented.
    public init() {}

    /// Presents `message`, replacing the one shown.
    public func present(_ message: Message) {
        presented = message
        presentedCount += 1
    }

    /// The user chose `action`: the message is dismissed. Returns `false` (and changes nothing)
    /// when no message is presented or it has no such action.
    @discardableResult
    public func dismiss(choosing action: MessageAction) -> Bool {
        guard let presented, presented.actions.contains(action) else { return false }
        self.presented = nil
        return true
    }
}
