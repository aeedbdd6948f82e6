import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation

/// The element `outbox` mode edits.
struct NoteRow: Identifiable, Codable, Sendable {
    let id: Int
    var text: String
}

/// Appends `suffix` to note `id`'s text; never sent (the outbox stays paused).
struct AppendToNote: Mutation {
    /// No server: the queue is paused.
    struct Offline: Sendable {}

    let id: Int
    let suffix: String
    var elementID: Int { id }
    func apply(to note: inout NoteRow) { note.text += suffix }
    func send(using environment: Offline, context: MutationContext<NoteRow>) async throws -> MutationResult<NoteRow> {
        throw CancellationError()
    }
}

/// Performs mutations of note 1 in the element store at `path`, one after another, writing
/// "performed ROUND.N" once each `perform` has returned, until the test kills the process.
func performForever(path: String, round: Int) async throws -> Never {
    let store = ElementStore<NoteRow>(disk: try DiskCache(.file(path: path)))
    if try await store.element(id: 1) == nil { try await store.save(NoteRow(id: 1, text: "")) }
    let outbox = Outbox(store: store, environment: AppendToNote.Offline(), mutations: [AppendToNote.self])
    outbox.pause()
    FileHandle.standardOutput.write(Data("performing\n".utf8))
    for number in 1... {
        try await outbox.perform(AppendToNote(id: 1, suffix: "\(round).\(number),"))
        FileHandle.standardOutput.write(Data("performed \(round).\(number)\n".utf8))
    }
    fatalError("unreachable")
}

/// Appends `suffix` to note `id`'s text and sends it: `PUT URL` with the note as edited over
/// the server's last value, `If-Match` and `Idempotency-Key`.
struct AppendToRemoteNote: Mutation {
    let id: Int
    let suffix: String
    var elementID: Int { id }
    func apply(to note: inout NoteRow) { note.text += suffix }
    func send(using remote: RemoteNote, context: MutationContext<NoteRow>) async throws -> MutationResult<NoteRow> {
        guard let edited = context.edited else { throw CancellationError() }
        let response = try await remote.client.send(
            .put(remote.url, body: edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
        return MutationResult(
            value: try remote.client.decode(NoteRow.self, from: response.body, url: remote.url),
            entityTag: response.validators.entityTag)
    }
}

/// Where `outbox-replay` sends: one note's record on the fixture server.
struct RemoteNote: Sendable {
    let client = APIClient()
    let url: URL
}

/// Performs mutations of note 1 through an outbox that sends them to `url` as they come,
/// printing "performed ROUND.N" once each `perform` has returned, until the test kills the
/// process; with `round` 0 it performs nothing and prints "drained" once the outbox holds no
/// pending mutation (the launch after the kills).
func performAndSendForever(path: String, url: URL, round: Int) async throws -> Never {
    let store = ElementStore<NoteRow>(disk: try DiskCache(.file(path: path)))
    if try await store.element(id: 1) == nil { try await store.save(NoteRow(id: 1, text: "")) }
    let outbox = Outbox(
        store: store, environment: RemoteNote(url: url), mutations: [AppendToRemoteNote.self],
        retryPolicy: RetryPolicy(attempts: 1))
    if round == 0 {
        await outbox.send()
        let pending = try await outbox.pendingMutations()
        FileHandle.standardOutput.write(Data((pending.isEmpty ? "drained\n" : "stuck \(pending.count)\n").utf8))
        exit(0)
    }
    FileHandle.standardOutput.write(Data("performing\n".utf8))
    for number in 1... {
        try await outbox.perform(AppendToRemoteNote(id: 1, suffix: "\(round).\(number),"))
        FileHandle.standardOutput.write(Data("performed \(round).\(number)\n".utf8))
    }
    fatalError("unreachable")
}
