import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// The kit's one rule for duplicate ids: a list that repeats an id is rejected whole, with an
/// error naming the id; nothing is written and what was stored stays.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DuplicateIDTests {
    private let repeated = [Note(id: 1, title: "one"), Note(id: 2, title: "two"), Note(id: 1, title: "uno")]

    @Test func theErrorNamesTheIDAndBothPositions() throws {
        #expect(throws: DuplicateIDError(id: "1", firstPosition: 0, duplicatePosition: 2)) {
            try DuplicateIDError.check(repeated)
        }
        try DuplicateIDError.check(notes(0..<100))
        let message = DuplicateIDError(id: "1", firstPosition: 0, duplicatePosition: 2).description
        #expect(message == "duplicate id 1 at positions 0 and 2: each id may appear once in a list")
    }

    @Test(arguments: ["sqlite", "memory"])
    func storesRejectARepeatedIDAndKeepWhatTheyHeld(kind: String) async throws {
        let store: any LocalStore<Note> =
            kind == "sqlite" ? try SQLiteStore<Note>(.inMemory) : InMemoryStore<Note>(sortedBy: { $0.id < $1.id })
        try await store.replaceAll(with: notes(0..<3), syncedAt: Date(timeIntervalSince1970: 7))
        await #expect(throws: DuplicateIDError.self) { try await store.write(repeated) }
        await #expect(throws: DuplicateIDError.self) { try await store.replaceAll(with: repeated, syncedAt: Date()) }
        #expect(try await store.fetchAll() == notes(0..<3))
        #expect(try await store.lastSyncDate() == Date(timeIntervalSince1970: 7))
    }

    @Test func aSyncOfARepeatedIDFailsWritingNothing() async throws {
        let store = try CountingStore(notes(0..<2))
        let repeated = repeated
        let synchronizer = Synchronizer(store: store) { repeated }
        await #expect(throws: DuplicateIDError.self) { try await synchronizer.sync() }
        #expect(await store.fetchAll() == notes(0..<2))
    }
}
