// The samples of "Offline edits" (OfflineEdits.md).
import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import Observation

#if canImport(SwiftUI)
    import SwiftUI
#endif

public enum OfflineEdits {
    public typealias Contact = Caching.Contact

    // sample: Sources/Repository/ContentLoadingRepository.docc/OfflineEdits.md#1
    struct Rename: Mutation {
        let id: Contact.ID
        let phone: String

        var elementID: Contact.ID { id }
        func apply(to contact: inout Contact) { contact.phone = phone }

        func send(using client: APIClient, context: MutationContext<Contact>) async throws -> MutationResult<Contact> {
            let url = URL(string: "https://api.example.com/contacts/\(id)")!
            let response = try await client.send(
                .put(url, body: context.edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
            return MutationResult(
                value: try client.decode(Contact.self, from: response.body, url: url), entityTag: response.validators.entityTag)
        }

        func resolve(_ conflict: MutationConflict<Contact>) -> ConflictResolution { .merge }
        func merge(_ conflict: MutationConflict<Contact>) -> Contact? {
            guard var contact = conflict.server else { return conflict.local }
            contact.phone = phone                  // the user's phone over everything else the server has
            return contact
        }
    }
    // end sample

    /// The performing sample: renames contact 42 and returns the count of changes not sent.
    public static func perform(contacts: ElementStore<Contact>, client: APIClient) async throws -> Int {
        // sample: Sources/Repository/ContentLoadingRepository.docc/OfflineEdits.md#2
        let outbox = Outbox(store: contacts, environment: client, mutations: [Rename.self])
        try await outbox.perform(Rename(id: 42, phone: "+1 555 0100"))   // every screen shows it at once
        let notSent = try await outbox.pendingCount()                      // "1 change not sent yet"
        // end sample
        return notSent
    }

    // NB: type-checked on Linux too, against the SwiftUI stand-ins (SwiftUIStandIns.swift).
    // sample: Sources/Repository/ContentLoadingRepository.docc/OfflineEdits.md#3
    @MainActor @Observable final class EditsStatus {
        var notSent = 0
        var conflict: PendingMutation<Contact, APIClient>?
        var failure: String?

        func follow(_ outbox: Outbox<Contact, APIClient>) async {
            for await event in outbox.events {
                switch event {
                case .conflict(let mutation, _, .ask): conflict = mutation
                case .rejected(_, let error): failure = "\(error)"
                default: break
                }
                notSent = (try? await outbox.pendingCount()) ?? notSent
            }
        }

        /// The user's answer to the conflict shown (no event follows when the server's value stays).
        func resolve(with resolution: ConflictResolution, in outbox: Outbox<Contact, APIClient>) async {
            guard let held = conflict else { return }
            conflict = nil
            await outbox.resolve(held, with: resolution)
            notSent = (try? await outbox.pendingCount()) ?? notSent
        }
    }

    struct EditsBanner: View {
        let status: EditsStatus
        let outbox: Outbox<Contact, APIClient>

        var body: some View {
            if status.notSent > 0 { Text("\(status.notSent) changes not sent yet") }
            if status.conflict != nil {
                Button("Keep my change") { Task { await status.resolve(with: .clientWins, in: outbox) } }
                Button("Use the server's") { Task { await status.resolve(with: .serverWins, in: outbox) } }
            }
        }
    }
    // end sample
}

extension OfflineEdits {
    // sample: Sources/Repository/ContentLoadingRepository.docc/OfflineEdits.md#4
    struct SignInNeeded: RetryableError {
        var isTransient: Bool { true }
    }

    struct KeptRename: Mutation {
        let id: Contact.ID
        let phone: String

        var elementID: Contact.ID { id }
        func apply(to contact: inout Contact) { contact.phone = phone }

        func send(using client: APIClient, context: MutationContext<Contact>) async throws -> MutationResult<Contact> {
            let url = URL(string: "https://api.example.com/contacts/\(id)")!
            do {
                let response = try await client.send(
                    .put(url, body: context.edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
                return MutationResult(
                    value: try client.decode(Contact.self, from: response.body, url: url), entityTag: response.validators.entityTag)
            } catch let error as APIError {
                if case .httpStatus(_, 401, _, _) = error.failure { throw SignInNeeded() }   // kept for after the sign-in
                throw error
            }
        }
    }
    // end sample
}
