import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// Conflicts against the fixture server, a real process that keeps its answer per idempotency
/// key, its `412`s too (as many real servers do): a mutation the client wins, or merges, is
/// sent again under a new key, with the server's entity tag, and lands.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxFixtureServerConflictTests {
    struct Note: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var text: String
    }

    /// The fixture server's record store: `records/notes/<id>`.
    struct Remote: Sendable {
        let client = APIClient(transport: .urlSession())
        let base: URL
        func url(of id: Int) -> URL { base.appendingPathComponent("records/notes/\(id)") }

        /// Writes `note` on the server as another client would (no `If-Match`).
        func overwrite(_ note: Note) async throws {
            _ = try await client.send(.put(url(of: note.id), body: note, idempotencyKey: UUID().uuidString))
        }

        func text(of id: Int) async throws -> String { try await client.fetch(Note.self, from: url(of: id)).text }
    }

    /// Appends to a note's text; a conflict ends as `onConflict` says ("client" or "merge").
    struct Append: Mutation {
        let id: Int
        let suffix: String
        let onConflict: String
        var elementID: Int { id }

        func apply(to note: inout Note) { note.text += suffix }

        func send(using remote: Remote, context: MutationContext<Note>) async throws -> MutationResult<Note> {
            guard let edited = context.edited else { throw CancellationError() }
            let url = remote.url(of: id)
            let response = try await remote.client.send(
                .put(url, body: edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
            return MutationResult(
                value: try remote.client.decode(Note.self, from: response.body, url: url),
                entityTag: response.validators.entityTag)
        }

        func resolve(_ conflict: MutationConflict<Note>) -> ConflictResolution {
            onConflict == "merge" ? .merge : .clientWins
        }

        /// The server's text, then the user's.
        func merge(_ conflict: MutationConflict<Note>) -> Note? {
            guard var note = conflict.server, let local = conflict.local else { return nil }
            note.text += " & " + local.text
            return note
        }
    }

    /// Performs `mutation` and returns the events until it is confirmed (or anything else
    /// ends it), `sending` left out.
    func outcomes(of mutation: Append, in outbox: Outbox<Note, Remote>) async throws -> [String] {
        var events = outbox.events.makeAsyncIterator()
        try await outbox.perform(mutation)
        var outcomes: [String] = []
        while let event = await events.next() {
            switch event {
            case .sending: continue
            case .conflict(_, _, let resolution): outcomes.append("conflict \(resolution)")
            case .confirmed:
                outcomes.append("confirmed")
                return outcomes
            default:
                outcomes.append("\(event)")
                return outcomes
            }
        }
        return outcomes
    }

    @Test func aConflictTheClientWinsOrMergesLandsUnderANewKey() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let remote = Remote(base: server.baseURL)
        try await remote.overwrite(Note(id: 1, text: "a"))
        let store = ElementStore<Note>(
            disk: try DiskCache(.file(path: try makeTemporaryDirectory().appendingPathComponent("notes.sqlite").path)))
        let details = KeyedRepository<Int, Note>(elements: store) { id, validators in
            try await remote.client.fetch(Note.self, from: remote.url(of: id), ifChangedSince: validators)
        }
        try await details.refresh(1)
        let outbox = Outbox(store: store, environment: remote, mutations: [Append.self])

        try await remote.overwrite(Note(id: 1, text: "B"))
        let clientWins = try await outcomes(of: Append(id: 1, suffix: "+c", onConflict: "client"), in: outbox)
        #expect(clientWins == ["conflict clientWins", "confirmed"])
        #expect(try await remote.text(of: 1) == "B+c", "the edit over the server's change")
        #expect(try await store.element(id: 1)?.text == "B+c")

        try await remote.overwrite(Note(id: 1, text: "D"))
        let merged = try await outcomes(of: Append(id: 1, suffix: "+e", onConflict: "merge"), in: outbox)
        #expect(merged == ["conflict merge", "confirmed"])
        #expect(try await remote.text(of: 1) == "D & B+c+e", "what the mutation's merge made of both sides")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.text == "D & B+c+e")
        #expect(try await outbox.pendingCount() == 0)
    }
}
