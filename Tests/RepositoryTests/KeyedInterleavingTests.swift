import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Saves, removals, fetches, failed writes, invalidations, joins, reader cancellations, a
/// clock that jumps back and forth and saves of another key that evict the key from memory (so
/// reads go to the file while it is written), interleaved at random over a disk tier (SQLite,
/// in memory): 1,000 runs, 10,000 in the full fault corpus (`CLK_FULL_FAULT_CORPUS=1`, as
/// `.ci/run` sets it), in 4 shards of their own seeds.
///
/// Refreshes, fresh values and one-shot reads that fetch first are made among them.
///
/// After each run: every save that returned is stored and every live reader ends with what the
/// store holds, no reader is left refreshing or waiting, no value whose write failed was ever
/// shown, and no fetch's value was shown after a save that came after the fetch started; no
/// fetch that started before a removal brought the value back; a value fetched by a request that
/// started before the last invalidation is not held as fresh; and no fresh value or one-shot
/// read that fetches first returned a value older than a save, removal or invalidation made
/// before it was called.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedInterleavingTests {
    static let runs = RandomizedRuns.count(full: 10_000, usual: 1_000)
    static let shards = 4

    // NB: shards that run side by side, on no actor: the repository is no main-actor type, and
    // the runs took three times as long hopping to the main actor between steps.
    @Test(arguments: 0..<shards)
    func randomInterleavingsKeepEveryWritePathRule(shard: Int) async throws {
        var random = SeededGenerator(seed: 24 &+ UInt64(shard))
        for run in 0..<Self.runs / Self.shards { try await Run(run: "shard \(shard), run \(run)").play(&random) }
    }
}

/// One run: a repository over an in-memory disk tier whose fetches the test completes.
private final class Run {
    let run: String
    let clock = TestWallClock()
    let loader = ControlledLoader<String, String>()
    let disk: DiskCache
    let repository: KeyedRepository<String, String>
    /// How many saves returned; the value a poisoned fetch returns instead of its own.
    let saves = Locked(0)
    let poisoned = Locked(false)
    let fetches = Locked(0)
    var readers: [(task: Task<Void, Never>, events: Locked<[CachedValue<String>?]>)] = []
    /// The readers that fetch first (reload, network-first), by index in `readers`, with the
    /// writes made before each started.
    var fetchingFirst: [Int: (committed: Int, invalidations: Int)] = [:]
    /// How many refresh, fresh value and one-shot read calls the test made have not returned.
    let runningRefreshes = Locked(0)
    /// How many invalidations were made, and how many saves and removals returned.
    let invalidations = Locked(0)
    var committed = 0
    /// How many removals started, and how many returned.
    let removals = Locked((started: 0, done: 0))
    /// What each fresh value and one-shot read returned (`nil`: nothing), with its name, the
    /// writes made before it was called, and whether it threw or a removal ran meanwhile.
    let answers = Locked<[Answer]>([])
    struct Answer {
        let call: String
        let committed: Int
        let invalidations: Int
        let answer: CachedValue<String>?
        let threw: Bool
        let removedMeanwhile: Bool
    }
    /// The steps played, for a failure's message.
    var steps: [String] = []
    static let stepNames = [
        "save", "save", "one-shot", "complete a fetch", "invalidate", "start a reader", "cancel a reader",
        "move the clock", "remove", "save another key", "yield",
    ]
    /// Values whose write failed: never to be shown.
    var lost: Set<String> = []
    /// The number of the last write when it was a removal.
    var removedAt: Int?

    init(run: String) throws {
        self.run = run
        disk = try DiskCache(.inMemory)
        let (loader, saves, poisoned, fetches, invalidations) = (loader, saves, poisoned, fetches, invalidations)
        repository = KeyedRepository(memory: MemoryCache(countLimit: 1), disk: disk, now: { [clock] in clock.now }) {
            key in
            // NB: the value says which fetch it is, how many saves had started and how many
            // invalidations had been made when its request started.
            let (id, before, invalidated) = (
                fetches.withLock { count in
                    count += 1; return count
                }, saves.withLock { $0 }, invalidations.withLock { $0 }
            )
            _ = try await loader.load(key)
            let name = poisoned.withLock { $0 } ? "poisoned" : "fetch"
            return "\(name) \(id)/\(before)/\(invalidated)"
        }
    }

    func play(_ random: inout SeededGenerator) async throws {
        for _ in 0..<Int(random.next() % 9 + 3) {
            let step = random.next() % 11
            steps.append(Self.stepNames[Int(step)])
            switch step {
            case 0, 1: try await save(random.next() % 5 == 0)
            case 2: oneShot(random.next())
            case 3: await completeOne(failingItsWrite: random.next() % 4 == 0, failingTheFetch: random.next() % 5 == 0)
            case 4:
                invalidations.withLock { $0 += 1 }
                repository.invalidate("k")
            case 5: startReader(random.next())
            case 6: if !readers.isEmpty { readers[Int(random.next() % UInt64(readers.count))].task.cancel() }
            case 7: clock.advance(by: random.next() % 2 == 0 ? 3_600 : -3_600)
            case 8: try await remove()
            // NB: memory keeps one key: a save of another sends the next reads of "k" to the
            // file, side by side with the writes of "k".
            case 9: try await repository.save("other", for: "other")
            default: for _ in 0..<Int(random.next() % 8) { await Task.yield() }
            }
        }
        try await settle()
        try await check()
    }

    private func save(_ failing: Bool) async throws {
        let number = saves.withLock { $0 } + 1
        guard failing else {
            // NB: counted before the save starts: a fetch that counts it started after the save
            // began, so it may follow it only if it started after the save committed.
            saves.withLock { $0 = number }
            try await repository.save("save \(number)", for: "k")
            committed = number
            return
        }
        await disk.setWriteFault { _ in throw Injected() }
        let value = "lost \(lost.count + 1)"
        await #expect(throws: CacheError.self, "run \(run)") { try await repository.save(value, for: "k") }
        lost.insert(value)
        await disk.setWriteFault(nil)
    }

    /// Removes the value, as a write numbered as saves are: a fetch that started before it
    /// does not bring the value back.
    private func remove() async throws {
        let number = saves.withLock { $0 } + 1
        saves.withLock { $0 = number }
        removedAt = number
        removals.withLock { $0.started += 1 }
        try await repository.remove("k")
        removals.withLock { $0.done += 1 }
        committed = number
    }

    /// A refresh, a fresh value or a one-shot read (its answer noted).
    private func oneShot(_ choice: UInt64) {
        runningRefreshes.withLock { $0 += 1 }
        let call = ["refresh", "fresh value", "reload", "network first", "cache first"][Int(choice % 5)]
        steps.append(call)
        let (before, invalidated) = (committed, invalidations.withLock { $0 })
        Task { [repository, runningRefreshes, answers, removals] in
            defer { runningRefreshes.withLock { $0 -= 1 } }
            let removedBefore = removals.withLock { $0.done }
            let answer: CachedValue<String>?
            var threw = false
            do {
                switch call {
                case "refresh":
                    _ = try await repository.refresh("k")
                    return
                case "fresh value": answer = try await repository.freshValue(for: "k")
                case "reload": answer = try await repository.value(for: "k", policy: .reloadIgnoringCache)
                case "network first": answer = try await repository.value(for: "k", policy: .loadElseReturnCache)
                default: answer = try await repository.value(for: "k")
                }
            } catch {
                (answer, threw) = (nil, true)
            }
            let removedMeanwhile = removals.withLock { $0.started } > removedBefore
            answers.withLock {
                $0.append(
                    Answer(
                        call: call, committed: before, invalidations: invalidated, answer: answer, threw: threw,
                        removedMeanwhile: removedMeanwhile))
            }
        }
    }

    private func completeOne(failingItsWrite: Bool, failingTheFetch: Bool) async {
        guard let call = loader.pendingCalls.first else { return }
        if failingItsWrite {
            poisoned.withLock { $0 = true }
            await disk.setWriteFault { _ in throw Injected() }
        }
        if failingTheFetch {
            _ = loader.complete(call, throwing: Injected())
        } else {
            _ = loader.complete(call, returning: "")
        }
        // NB: not `fetchSettled`: a newer fetch may wait for a call only the test completes.
        await untilQuiet()
        poisoned.withLock { $0 = false }
        await disk.setWriteFault(nil)
    }

    /// Yields until no fetch runs, or one waits for the test.
    private func untilQuiet() async {
        for _ in 0..<10_000 where repository.isFetching("k") && loader.pendingCalls.isEmpty { await Task.yield() }
    }

    private func startReader(_ choice: UInt64) {
        let policies: [CachePolicy] = [
            .returnCacheElseLoad, .returnCacheDontLoad, .reloadIgnoringCache, .returnCacheThenLoad,
            .loadElseReturnCache,
        ]
        let events = Locked<[CachedValue<String>?]>([])
        let policy = policies[Int(choice % 5)]
        if policy == .reloadIgnoringCache || policy == .loadElseReturnCache {
            fetchingFirst[readers.count] = (committed, invalidations.withLock { $0 })
        }
        steps.append("reader \(policy)")
        let stream = repository.events(for: "k", policy: policy)
        let task = Task {
            for await event in stream {
                switch event {
                case .value(let cached): events.withLock { $0.append(cached) }
                case .noValue, .error: events.withLock { $0.append(nil) }
                }
            }
        }
        readers.append((task, events))
    }

    /// Completes every fetch until none is left, and waits for the refreshes to return and the
    /// readers to take in what came.
    private func settle() async throws {
        var rounds = 0
        while rounds < 20_000 {
            rounds += 1
            if let call = loader.pendingCalls.first {
                _ = loader.complete(call, returning: "")
                continue
            }
            // NB: a reader still on its way to its first event, or refreshing, may start a fetch.
            let busy = readers.contains { reader in
                !reader.task.isCancelled && reader.events.withLock { $0.isEmpty || $0.last??.isRefreshing == true }
            }
            guard busy || repository.isFetching("k") || runningRefreshes.withLock({ $0 }) > 0 else { break }
            await Task.yield()
        }
        #expect(rounds < 20_000, "run \(run): a reader was left waiting or refreshing, or a fetch running")
    }

    private func check() async throws {
        let saved = saves.withLock { $0 }
        let store = KeyedRepository<String, String>(
            memory: MemoryCache(countLimit: 1, costLimit: 0), disk: disk,
            ages: .init(staleAfter: .zero, expireAfter: .seconds(1 << 40)),
            now: { [clock] in clock.now }
        ) { $0 }
        let stored = try await store.value(for: "k", policy: .returnCacheDontLoad)?.value
        #expect(repository.cachedValue(for: "k").map(\.value) ?? stored == stored, "run \(run): memory holds the store")
        if saved > 0 {
            // The last save (nothing, when the last write was a removal), or a fetch that started after it.
            let afterLastSave =
                stored.map { $0 == "save \(saved)" || Self.writes(before: $0)?.saves == saved } ?? (removedAt == saved)
            #expect(afterLastSave, "run \(run): stored \(stored ?? "nothing") after save \(saved)")
        }
        for (index, reader) in readers.enumerated() {
            // NB: a live reader takes in the last write a little after the test saw it stored.
            for _ in 0..<10_000 where !reader.task.isCancelled && reader.events.withLock({ $0.last??.value }) != stored
            {
                await Task.yield()
            }
            let events = reader.events.withLock { $0 }
            var seenSaves = 0
            for shown in events.compactMap({ $0?.value }) {
                #expect(!lost.contains(shown) && !shown.hasPrefix("poisoned"), "run \(run): \(shown) was never stored")
                let parts = shown.split(separator: " ")
                if parts[0] == "lost" { continue }
                if parts[0] == "save" {
                    seenSaves = Int(parts[1])!
                } else if let before = Self.writes(before: shown)?.saves {
                    #expect(before >= seenSaves, "run \(run): \(shown) shown after save \(seenSaves)")
                }
            }
            // NB: a read that fetches first shows first its fetch's value (or a save), not an
            // older fetch's.
            if let (before, invalidated) = fetchingFirst[index], let first = events.first ?? nil,
                first.origin == .remote, let writes = Self.writes(before: first.value)
            {
                #expect(
                    writes.saves >= before && writes.invalidations >= invalidated,
                    "run \(run), reader \(index): first showed \(first.value), started after \(before) writes, \(invalidated) invalidations; \(steps)"
                )
            }
            guard !reader.task.isCancelled, let last = events.last else { continue }
            #expect(last?.isRefreshing != true, "run \(run), reader \(index): left refreshing")
            if let last, let stored { #expect(last.value == stored, "run \(run), reader \(index): \(last.value)") }
        }
        for reader in readers { reader.task.cancel() }
        try await checkFreshness(of: stored)
    }

    /// A fetched value held is stale when its request started before the last invalidation; no
    /// fresh value or read that fetches first answered with a value older than a save, removal
    /// or invalidation made before it was called (network-first falling back on the cache
    /// aside).
    private func checkFreshness(of stored: String?) async throws {
        if let stored, let writes = Self.writes(before: stored), writes.invalidations < invalidations.withLock({ $0 }) {
            let held = try await repository.value(for: "k", policy: .returnCacheDontLoad)
            #expect(held?.isStale != false, "run \(run): \(stored) is held as fresh after a later invalidation")
        }
        for noted in answers.withLock({ $0 }) {
            let (call, before, invalidated) = (noted.call, noted.committed, noted.invalidations)
            // NB: the server always has a value: "no value" only when a removal ran meanwhile.
            #expect(
                noted.answer != nil || noted.threw || noted.removedMeanwhile,
                "run \(run): \(call) answered no value, called after \(before) writes; \(steps)")
            // NB: a cache-first read serves a stale value, and network-first the cached one when its fetch fails.
            guard let answer = noted.answer, call != "cache first", call != "network first" || answer.origin == .remote
            else { continue }
            let parts = answer.value.split(separator: " ")
            if parts[0] == "save" {
                #expect(Int(parts[1])! >= before, "run \(run): \(call) answered \(answer.value) after save \(before)")
            } else if let writes = Self.writes(before: answer.value) {
                #expect(
                    writes.saves >= before && writes.invalidations >= invalidated,
                    "run \(run): \(call) answered \(answer.value), called after \(before) writes, \(invalidated) invalidations"
                )
            }
        }
    }

    /// How many saves had started and invalidations had been made when the request of a
    /// fetched `value` ("fetch id/saves/invalidations") started; `nil` for another value.
    static func writes(before value: String) -> (saves: Int, invalidations: Int)? {
        let parts = value.split(separator: " ")
        guard parts.count == 2, parts[0] == "fetch" || parts[0] == "poisoned" else { return nil }
        let numbers = parts[1].split(separator: "/").compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        return (numbers[1], numbers[2])
    }

    struct Injected: Error {}
}
