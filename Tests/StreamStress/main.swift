// stream-stress [ITERATIONS]
//
// A test helper: cancels tasks that iterate the kit's broadcast streams while other threads
// send to them, the interleaving that once deadlocked (a send held the broadcast's lock while
// yielding; a cancelled iterator's termination handler waited for that lock). It prints
// "done N" when every round finished; a deadlock shows as a process that never prints it,
// which the test that runs it kills after its time limit. It also checks, in the release
// build CI runs it in, what only an optimised build can get wrong (see each function).
import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation

let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000

/// Model states: iterated in a detached task, that task cancelled from another task, while the
/// main actor refreshes.
@MainActor func stressModelStates(iterations: Int) async {
    let model = ContentLoadingViewModel<Int, Int>(load: { $0 })
    for round in 0..<iterations {
        let states = model.states
        let reader = Task.detached {
            for await _ in states {}
        }
        let canceller = Task.detached { reader.cancel() }
        await model.refresh(round).settled()
        await canceller.value
        await reader.value
    }
}

/// Refreshes of models that nothing but their handle holds, awaited on the main actor: an
/// optimised build must keep each model alive until its refresh settles (a model released
/// first would settle the wait with its `loading` state).
@MainActor func awaitTemporaryModels(iterations: Int) async {
    for round in 0..<iterations {
        let state = await ContentLoadingViewModel<Int, Int>(load: { $0 }).refresh(round).settled()
        guard state == .success(round) else { fatalError("round \(round): a temporary model settled in \(state)") }
    }
}

/// A bare broadcast: sends from one detached task while subscribers come and go on others.
func stressBroadcast(iterations: Int) async {
    let broadcast = Broadcast<Int>()
    let sender = Task.detached {
        var value = 0
        while !Task.isCancelled {
            broadcast.send(value)
            value += 1
            // NB: a send never suspends, so without a yield the sender holds its thread of the
            // cooperative pool for good; with two cores the reader (which always finds a value
            // waiting) takes the other, and the task that cancels the reader never runs.
            if value % 64 == 0 { await Task.yield() }
        }
    }
    for _ in 0..<iterations {
        let reader = Task.detached {
            for await _ in broadcast.subscribe(initial: -1) {}
        }
        await Task.detached { reader.cancel() }.value
        await reader.value
    }
    sender.cancel()
    await sender.value
    broadcast.finish()
}

struct Item: Identifiable, Equatable, Sendable {
    let id: Int
    let version: Int
}

/// Repository event streams dropped while syncs write into the observed store.
func stressRepositoryEvents(iterations: Int) async {
    let store = InMemoryStore<Item>(sortedBy: { $0.id < $1.id })
    let versions = Locked(0)
    let synchronizer = Synchronizer(store: store) {
        let version = versions.withLock { value in
            value += 1
            return value
        }
        return (0..<3).map { Item(id: $0, version: version) }
    }
    let repository = Repository(synchronizer: synchronizer)
    let writer = Task.detached {
        while !Task.isCancelled { _ = try? await synchronizer.sync() }
    }
    for _ in 0..<iterations {
        let reader = Task.detached {
            for await _ in repository.events(syncing: false) {}
        }
        await Task.detached { reader.cancel() }.value
        await reader.value
    }
    writer.cancel()
    await writer.value
}

await stressModelStates(iterations: iterations)
await awaitTemporaryModels(iterations: iterations)
await stressRepositoryEvents(iterations: iterations)
await stressBroadcast(iterations: iterations)
print("done \(iterations)")
