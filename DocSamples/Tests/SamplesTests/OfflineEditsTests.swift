import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import Testing

@testable import Samples

/// "Offline edits", "When the sign-in has expired": an edit answered 401 stays pending and
/// shown, and goes once the user has signed in again.
@Suite(.timeLimit(.minutes(1)))
struct OfflineEditsTests {
    typealias Contact = OfflineEdits.Contact

    /// A server of contacts that answers 401 until the user has signed in.
    final class Server: @unchecked Sendable {
        private let lock = NSLock()
        private var signedIn = false
        private var puts: [String] = []

        func signIn() { lock.withLock { signedIn = true } }
        var requests: [String] { lock.withLock { puts } }

        var transport: Transport {
            Transport { request in
                self.lock.withLock {
                    self.puts.append("\(request.method.rawValue) \(self.signedIn ? "signed in" : "signed out")")
                    let status = self.signedIn ? 200 : 401
                    return TransportResponse(url: request.url, statusCode: status, body: self.signedIn ? request.body ?? Data() : Data())
                }
            }
        }
    }

    @Test func anEditAnswered401IsKeptUntilTheSignIn() async throws {
        let server = Server()
        let contacts = ElementStore<Contact>(disk: try DiskCache(.inMemory))
        try await contacts.save(Contact(id: 42, phone: "+1 555 0000"))
        let outbox = Outbox(
            store: contacts, environment: APIClient(transport: server.transport), mutations: [OfflineEdits.KeptRename.self],
            retryPolicy: .never)
        var events = outbox.events.makeAsyncIterator()

        try await outbox.perform(OfflineEdits.KeptRename(id: 42, phone: "+1 555 0100"))
        while let event = await events.next() {
            if case .willRetry(_, let error) = event {
                #expect(error is OfflineEdits.SignInNeeded)
                break
            }
            if case .rejected = event { Issue.record("the edit was rolled back"); return }
        }
        #expect(try await outbox.pendingCount() == 1)
        #expect(try await contacts.element(id: 42)?.phone == "+1 555 0100", "the edit is still shown")

        server.signIn()
        await outbox.send()
        while let event = await events.next() {
            if case .confirmed = event { break }
        }
        #expect(try await outbox.pendingCount() == 0)
        #expect(try await contacts.element(id: 42)?.phone == "+1 555 0100")
        #expect(server.requests == ["PUT signed out", "PUT signed in"])
    }
}
