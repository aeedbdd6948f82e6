import ContentLoading
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
