import ContentLoading
import ContentLoadingSupport
import Observation

/// A headless contacts screen: what a phone/address view shows, bound to a loader.
///
/// It renders each state of its loader:
/// - `success`: fills ``phoneText`` and ``addressText`` from the first contact (lowest order)
///   and enables the call button when there is a phone number; presents no alert.
/// - `empty`: presents no alert and shows no contact: the fields are cleared and the call
///   button disabled.
/// - `error`: presents a `Message` titled "Could not load contacts" with the
///   error's text and one "OK" action on ``messages`` (and in ``alert``); the fields keep what
///   they showed.
///
/// An error never ends the binding: a later success still fills the fields.
///
/// ```swift
/// let screen = ContactsScreen(loader: loader)
/// loader.refresh()
/// ```
///
/// A SwiftUI view then shows it (Apple platforms):
///
/// ```swift
/// VStack {
///     Text(screen.phoneText)
///     Button("Call") {}.disabled(!screen.isCallEnabled)
/// }
/// .alert(screen.alert?.title ?? "", isPresented: .constant(screen.alert != nil)) {
///     Button("OK") { screen.choose(.ok) }
/// } message: { Text(screen.alert?.message ?? "") }
/// ```
@MainActor
@Observable
public final class ContactsScreen {
    /// What the screen shows at one moment.
    public struct Display: Sendable, Hashable {
        /// The phone number of the first contact, or empty.
        public var phoneText = ""
        /// The address of the first contact, or empty.
        public var addressText = ""
        /// Whether the call button is enabled: there is a phone number.
        public var isCallEnabled = false
        /// The presented message, if any.
        public var alert: Message?

        /// A blank display: no phone, no address, no alert.
        public init() {}
    }

    /// What the screen shows now.
    public private(set) var display = Display()

    /// The loader the screen is bound to: a ``SellerContactsLoader``, a
    /// ``SellerContactsStoreLoader``, or any other loader of contacts.
    @ObservationIgnored public let loader: ContentLoadingViewModel<Void, [SellerContacts]>
    @ObservationIgnored private let displays = Broadcast<Display>()
    /// Presents the load errors; the generic message model any screen can bind errors to.
    @ObservationIgnored public let messages = MessagePresenter()

    /// Binds a screen to `loader`, rendering its current state and every later one.
    public init(loader: ContentLoadingViewModel<Void, [SellerContacts]>) {
        self.loader = loader
        let states = loader.states
        Task { [weak self] in
            for await state in states {
                guard let self else { return }
                self.render(state)
            }
        }
    }

    deinit { displays.finish() }

    /// The phone number shown.
    public var phoneText: String { display.phoneText }
    /// The address shown.
    public var addressText: String { display.addressText }
    /// Whether the call button is enabled.
    public var isCallEnabled: Bool { display.isCallEnabled }
    /// The presented message, if any.
    public var alert: Message? { display.alert }

    /// A new stream of what the screen shows: the current display, then one after every change
    /// of it: each ``render(_:)`` and each ``choose(_:)`` that dismisses the alert.
    public var displayUpdates: AsyncStream<Display> { displays.subscribe(initial: display) }

    /// Renders `state` as described on the type.
    public func render(_ state: ContentLoadingState<[SellerContacts]>) {
        switch state {
        case .success(let contacts):
            let first = contacts.sortedByOrder().first
            display.phoneText = first?.phone ?? ""
            display.addressText = first?.address ?? ""
            display.isCallEnabled = !(first?.phone ?? "").isEmpty
        case .error(let error, _):
            messages.present(Message(error: error, title: "Could not load contacts"))
            display.alert = messages.presented
        case .empty:
            // NB: nothing to show: a contact shown before (since removed) is not left on screen.
            (display.phoneText, display.addressText, display.isCallEnabled) = ("", "", false)
        case .unloaded, .loading:
            break
        }
        displays.send(display)
    }

    /// The user chose `action` in the presented message: it is dismissed.
    public func choose(_ action: MessageAction) {
        guard messages.dismiss(choosing: action) else { return }
        display.alert = nil
        displays.send(display)
    }
}
