import ContentLoadingNetworking
import ContentLoadingRepository
import ContentLoadingSupport
import ExampleSupport
import Foundation
import SellerContacts

extension SellerContactsCommand {
    /// Performs `edit` through `outbox` (stored and shown at once; the outbox sends it when it
    /// resumes); returns the exit status: 1 when the contact is not stored or the edit cannot
    /// be stored.
    static func perform(
        _ edit: PhoneEdit, outbox: Outbox<SellerContacts, SellerContactsAPIManager>,
        contacts: ElementStore<SellerContacts>, console: Console
    ) async -> Int32 {
        do {
            guard try await contacts.element(id: edit.order) != nil else {
                reportError(MissingContact(order: edit.order), console: console)
                return 1
            }
            try await outbox.perform(edit)
        } catch {
            reportError(error, context: "the edit was not stored: ", console: console)
            return 1
        }
        let phone = edit.phone.map { "'\($0.escapingControlCharacters)'" } ?? "none"
        console.write("edit: the phone of contact \(edit.order) is now \(phone) (stored until the server has it)\n")
        return 0
    }

    /// "1 change not sent yet" when the outbox holds pending edits; nothing when it is empty.
    static func reportPending(_ outbox: Outbox<SellerContacts, SellerContactsAPIManager>, console: Console) async {
        do {
            let count = try await outbox.pendingCount()
            guard count > 0 else { return }
            console.write(
                "\(count) change\(count == 1 ? "" : "s") not sent yet (sent by the next --cache run with this URL)\n")
        } catch {
            reportError(error, context: "the pending edits cannot be counted: ", console: console)
        }
    }

    /// Writes each request that changes something on the server (a `PUT`, say) as it ends:
    /// "sent: PUT http://…/contacts/2 → 200, …, attempt 1".
    static func reportingWrites(to console: Console) -> @Sendable (ExchangeReport) -> Void {
        { report in
            guard report.method != .get else { return }
            console.write("sent: \(report)\n")
        }
    }
}
