// The samples of "Getting started" (Sources/ContentLoading/ContentLoading.docc/GettingStarted.md).
import ContentLoading

#if canImport(SwiftUI)
    import SwiftUI
#endif

public enum GettingStarted {
    public struct Contact: Sendable, Identifiable, Equatable {
        public let id: Int
        public let order: Int
        public init(id: Int, order: Int) {
            self.id = id
            self.order = order
        }
    }

    public struct ContactsAPI: Sendable {
        public let contacts: @Sendable () async throws -> [Contact]
        public init(contacts: @escaping @Sendable () async throws -> [Contact]) { self.contacts = contacts }
    }

    struct ContactRow: View {
        let contact: Contact
        var body: some View { Text("\(contact.order)") }
    }

    struct ErrorBanner: View {
        init(_ error: any Error) {}
        var body: some View { Text("error") }
    }

    // sample: Sources/ContentLoading/ContentLoading.docc/GettingStarted.md#1
    final class ContactsModel: ContentLoadingViewModel<Void, [Contact]> {
        init(api: ContactsAPI) {
            super.init(lifetimeTrigger: .everyAppearance) { _ in
                try await api.contacts().sorted { $0.order < $1.order }
            }
        }
    }
    // end sample

    // sample: Sources/ContentLoading/ContentLoading.docc/GettingStarted.md#2
    struct ContactsView: View {
        @State var model: ContactsModel

        var body: some View {
            List(model.content ?? []) { ContactRow(contact: $0) }
                .overlay { if case .empty = model.state { ContentUnavailableView("No contacts", systemImage: "person") } }
                .overlay(alignment: .top) { if let error = model.state.error { ErrorBanner(error) } }
                .refreshable { await model.refresh().completed() }
                .onAppear { model.viewLifetime = .willAppear }
                .onDisappear { model.viewLifetime = .didDisappear }
        }
    }
    // end sample

    /// The model of the first sample, for the tests that run it.
    @MainActor public static func contactsModel(api: ContactsAPI) -> ContentLoadingViewModel<Void, [Contact]> {
        ContactsModel(api: api)
    }
}
