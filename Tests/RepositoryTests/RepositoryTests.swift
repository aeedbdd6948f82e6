import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RepositoryTests {
    let remote = TestRemote()

    @Test func successfulSyncYieldsStoredThenUpdatedValuesAndNoError() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.write(notes(0..<1))
        remote.serve(notes(0..<3))
        let repository = Repository(synchronizer: Synchronizer(store: store, fetch: remote.fetch))
        let events = StreamRecorder(repository.events())
        let first = try await events.values(count: 2)
        #expect(first.map(\.value) == [notes(0..<1), notes(0..<3)])
        #expect(events.elements.allSatisfy { $0.error == nil })
    }

    @Test func failingSyncYieldsAnErrorAndTheStoredValuesAndKeepsGoing() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.write(notes(0..<2))
        remote.fail(with: RemoteFailure(reason: "offline"))
        let repository = Repository(synchronizer: Synchronizer(store: store, fetch: remote.fetch))
        let events = StreamRecorder(repository.events())
        let first = try await events.values(count: 2)
        #expect(first[0].value == notes(0..<2))
        #expect(first[1].error as? RemoteFailure == RemoteFailure(reason: "offline"))
        try await store.write([Note(id: 7, title: "after the error")])
        #expect(try await events.values(count: 3).last?.value == notes(0..<2) + [Note(id: 7, title: "after the error")])
        #expect(!events.isFinished)
    }

    @Test func valuesOperatorPresentsEachErrorOnceAndKeepsValuesFlowing() async throws {
        let store = try InMemoryStore<Note>(sortedBy: { $0.id < $1.id }, elements: notes(0..<1))
        remote.fail(with: RemoteFailure(reason: "offline"))
        let repository = Repository(synchronizer: Synchronizer(store: store, fetch: remote.fetch))
        let errors = ErrorLog()
        let values = AsyncStream<[Note]> { continuation in
            let task = Task {
                for await value in repository.events().values(onError: { errors.append($0) }) {
                    continuation.yield(value)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        let recorded = StreamRecorder(values)
        #expect(try await recorded.values(count: 1) == [notes(0..<1)])
        await errors.firstError()  // the sync's failure is reported asynchronously
        try await store.write(notes(1..<2))
        #expect(try await recorded.values(count: 2).last == notes(0..<2))
        #expect(errors.count == 1)
    }

    @Test func viewModelShowsStoredContentThenAnErrorWithTheContentKept() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.write(notes(0..<2))
        remote.fail(with: RemoteFailure(reason: "offline"))
        let repository = Repository(synchronizer: Synchronizer(store: store, fetch: remote.fetch))
        final class NotesModel: ContentLoadingViewModel<Void, [Note]> {
            let repository: Repository<Note>
            init(repository: Repository<Note>) {
                self.repository = repository
                super.init()
            }
            override func producer(for input: Void) -> ContentProducer<[Note]> { .events(repository.events()) }
        }
        let model = NotesModel(repository: repository)
        let recorder = StateRecorder(model)
        model.refresh()
        let states = try await recorder.states(count: 4)
        #expect(states.map(\.phase) == [.unloaded, .loading, .success, .error])
        #expect(states[3].content == notes(0..<2), "the stored notes stay shown with the error")
        try await store.write(notes(2..<3))
        #expect(
            try await recorder.states(count: 5).last == .success(notes(0..<3)),
            "store changes keep arriving after the error")
    }
}

/// Errors handed to an error handler, counted; the first can be awaited.
final class ErrorLog: Sendable {
    private let errors = Locked<[any Error]>([])
    private let first = SettleSignal<Void>()
    func append(_ error: any Error) {
        errors.withLock { $0.append(error) }
        first.resolve(())
    }
    func firstError() async { await first.wait() }
    var count: Int { errors.withLock { $0.count } }
}
