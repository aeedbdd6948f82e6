import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// A record with a constraint, so a batch can fail in its middle.
struct Note: SQLiteRecord, Hashable {
    let id: Int
    var title: String

    static let tableName = "notes"
    static let migrations = [
        "CREATE TABLE notes (id INTEGER PRIMARY KEY NOT NULL, title TEXT NOT NULL CHECK (title <> ''))"
    ]
    static let columns = ["id", "title"]
    static let orderBy = "id"

    func bind(to statement: SQLiteStatement) throws {
        try statement.bind(id, at: 1)
        try statement.bind(title, at: 2)
    }

    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    init(row: SQLiteStatement) throws {
        self.init(id: row.int(at: 0), title: row.text(at: 1) ?? "")
    }

    static func bind(id: Int, to statement: SQLiteStatement, at index: Int32) throws {
        try statement.bind(id, at: index)
    }
}

func notes(_ range: Range<Int>, _ prefix: String = "note") -> [Note] {
    range.map { Note(id: $0, title: "\(prefix) \($0)") }
}

/// A fresh database path in a directory of its own.
func temporaryDatabasePath() throws -> String {
    try TestScratch.directory("db").appendingPathComponent("notes.sqlite").path
}

/// A wall clock the test moves by hand.
final class TestWallClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_000_000))
    var now: Date { date.withLock { $0 } }
    func advance(by seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

/// A remote the test controls: counts fetches, and can answer, fail, or hold a fetch.
final class TestRemote: Sendable {
    private let state = Locked<(notes: [Note], failure: (any Error)?, fetches: Int)>(([], nil, 0))
    let gate = Locked<SettleSignal<Void>?>(nil)

    var fetchCount: Int { state.withLock { $0.fetches } }
    func serve(_ notes: [Note]) {
        state.withLock {
            $0.notes = notes; $0.failure = nil
        }
    }
    func fail(with error: any Error) { state.withLock { $0.failure = error } }

    /// Makes fetches wait until the returned signal is resolved.
    func hold() -> SettleSignal<Void> {
        let signal = SettleSignal<Void>()
        gate.withLock { $0 = signal }
        return signal
    }

    @Sendable func fetch() async throws -> [Note] {
        let (notes, failure) = state.withLock { state in
            state.fetches += 1
            return (state.notes, state.failure)
        }
        if let signal = gate.withLock({ $0 }) { await signal.wait() }
        if let failure { throw failure }
        return notes
    }
}

struct RemoteFailure: Error, Equatable { let reason: String }

/// A store that forwards to another and counts writes, to prove that nothing was written.
actor CountingStore: LocalStore {
    let base: InMemoryStore<Note>
    private(set) var writes = 0

    init(_ notes: [Note] = []) throws { base = try InMemoryStore(sortedBy: { $0.id < $1.id }, elements: notes) }

    func observe() async -> AsyncStream<[Note]> { await base.observe() }
    func fetchAll() async -> [Note] { await base.fetchAll() }
    func write(_ elements: [Note]) async throws {
        writes += 1
        try await base.write(elements)
    }
    func replaceAll(with elements: [Note], syncedAt: Date?) async throws {
        writes += 1
        try await base.replaceAll(with: elements, syncedAt: syncedAt)
    }
    func delete(ids: [Int]) async {
        writes += 1
        await base.delete(ids: ids)
    }
    func lastSyncDate() async -> Date? { await base.lastSyncDate() }
    func setLastSyncDate(_ date: Date) async { await base.setLastSyncDate(date) }
}
