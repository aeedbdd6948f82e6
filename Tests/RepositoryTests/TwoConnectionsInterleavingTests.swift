import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Two connections to one file (two processes; here two `DiskCache`s), each with a repository
/// of the same key (of a value, or of a list over an element store): saves, fetches and
/// invalidations through either, interleaved at random. 200 runs of each, 2,000 in the full
/// fault corpus (`CLK_FULL_FAULT_CORPUS=1`, as `.ci/run` sets it).
///
/// After each run the file holds the last save, or the value of a fetch that started after
/// that save began: a fetch never overwrites, in the file, a save made after it started,
/// whichever connection made either.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct TwoConnectionsInterleavingTests {
    static let runs = RandomizedRuns.count(full: 2_000, usual: 200)

    @Test func aFetchNeverOverwritesASaveMadeAfterItStartedOnEitherConnection() async throws {
        var random = SeededGenerator(seed: 42)
        let directory = try temporaryCachePath()
        for run in 0..<Self.runs {
            let path = directory + "-\(run)"
            try await TwoConnectionsRun(path: path, run: run).play(&random)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}

extension TwoConnectionsInterleavingTests {
    /// The same over element stores: element 1 saved through either connection's store, and
    /// fetched in a list through either; the file's row is the last save, or what a fetch that
    /// started after it began brought.
    @Test func aListFetchNeverOverwritesAnElementSavedAfterItStartedOnEitherConnection() async throws {
        var random = SeededGenerator(seed: 43)
        let directory = try temporaryCachePath()
        for run in 0..<Self.runs {
            let path = directory + "-elements-\(run)"
            try await TwoConnectionsRun(path: path, run: run, elements: true).play(&random)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}

/// One run: two repositories over two connections to one file, with fetches the test completes.
private final class TwoConnectionsRun: Sendable {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    let run: Int
    /// How many saves began (through either repository).
    let saves = Locked(0)
    let loaders = [ControlledLoader<String, String>(), ControlledLoader<String, String>()]
    /// A repository of the key "k" per connection: of a string, or (over element stores) of
    /// a list holding element 1 and 2.
    let repositories: [Side]
    let refreshes = Locked(0)
    let steps = Locked<[String]>([])

    /// One connection's repository.
    enum Side: Sendable {
        case value(KeyedRepository<String, String>)
        case elements(ElementStore<Contact>, KeyedRepository<String, [Contact]>)

        func save(_ value: String) async throws {
            switch self {
            case .value(let repository): try await repository.save(value, for: "k")
            case .elements(let store, _): try await store.save(Contact(id: 1, phone: value))
            }
        }

        func refresh() async throws {
            switch self {
            case .value(let repository): try await repository.refresh("k")
            case .elements(_, let lists): try await lists.refresh("k")
            }
        }

        func invalidate() {
            switch self {
            case .value(let repository): repository.invalidate("k")
            case .elements(_, let lists): lists.invalidate("k")
            }
        }

        var isFetching: Bool {
            switch self {
            case .value(let repository): repository.isFetching("k")
            case .elements(_, let lists): lists.isFetching("k")
            }
        }
    }

    init(path: String, run: Int, elements: Bool = false) throws {
        self.path = path
        self.run = run
        var repositories: [Side] = []
        for (index, loader) in loaders.enumerated() {
            let saves = saves
            // NB: the value says which connection fetched it and how many saves had begun when its
            // request started.
            let fetched: @Sendable (String) async throws -> String = { key in
                let before = saves.withLock { $0 }
                _ = try await loader.load(key)
                return "fetch \(index)/\(before)"
            }
            let disk = try DiskCache(.file(path: path))
            if elements {
                let store = ElementStore<Contact>(disk: disk)
                repositories.append(
                    .elements(
                        store,
                        KeyedRepository(elements: store) { key in
                            [Contact(id: 1, phone: try await fetched(key)), Contact(id: 2, phone: "two")]
                        }))
            } else {
                repositories.append(.value(KeyedRepository(disk: disk, fetch: fetched)))
            }
        }
        self.repositories = repositories
    }

    func play(_ random: inout SeededGenerator) async throws {
        for _ in 0..<Int.random(in: 3...12, using: &random) {
            let side = Int.random(in: 0...1, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                let number = saves.withLock { count in
                    count += 1
                    return count
                }
                steps.withLock { $0.append("save \(number) on \(side)") }
                try await repositories[side].save("save \(number)")
            case 2:
                steps.withLock { $0.append("refresh on \(side)") }
                refreshes.withLock { $0 += 1 }
                Task { [repositories, refreshes] in
                    _ = try? await repositories[side].refresh()
                    refreshes.withLock { $0 -= 1 }
                }
            case 3:
                guard let call = loaders[side].pendingCalls.first else { continue }
                steps.withLock { $0.append("complete on \(side)") }
                _ = loaders[side].complete(call, returning: "")
            case 4:
                steps.withLock { $0.append("invalidate on \(side)") }
                repositories[side].invalidate()
            default:
                for _ in 0..<Int.random(in: 0..<8, using: &random) { await Task.yield() }
            }
        }
        try await settle()
        try await check()
    }

    /// Completes every fetch until none is left and every refresh returned.
    private func settle() async throws {
        var rounds = 0
        while rounds < 20_000 {
            rounds += 1
            if let (side, call) = loaders.enumerated().lazy.compactMap({ side, loader in
                loader.pendingCalls.first.map { (side, $0) }
            }).first {
                _ = loaders[side].complete(call, returning: "")
                continue
            }
            let fetching = repositories.contains(where: \.isFetching)
            guard fetching || refreshes.withLock({ $0 }) > 0 else { break }
            await Task.yield()
        }
        #expect(rounds < 20_000, "run \(run): a fetch was left running")
    }

    private func check() async throws {
        // NB: both connections keep the file's byte total as they write: it is what the rows hold.
        let kept = try sqlRows("SELECT quote(stored_bytes) FROM content_loading_cache_counter", in: path)
        let measured = try sqlRows(
            """
            SELECT CAST((SELECT total(length(CAST(key AS BLOB))) FROM content_loading_cache)
                + (SELECT total(length(CAST(value AS BLOB))) FROM content_loading_cache_values) AS INTEGER)
            """, in: path)
        #expect(kept == measured, "run \(run): the file keeps \(kept) bytes: \(steps.withLock { $0 })")
        let saved = saves.withLock { $0 }
        guard saved > 0 else { return }
        let stored: String?
        if case .elements = repositories[0] {
            stored = try await ElementStore<Contact>(disk: try DiskCache(.file(path: path))).element(id: 1)?.phone
        } else {
            let file = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { $0 }
            stored = try await file.value(for: "k", policy: .returnCacheDontLoad)?.value
        }
        // The last save, or a fetch that started after it began.
        let afterLastSave = stored.map { $0 == "save \(saved)" || $0.hasSuffix("/\(saved)") } ?? false
        #expect(
            afterLastSave,
            "run \(run): the file holds \(stored ?? "nothing") after save \(saved): \(steps.withLock { $0 })")
    }
}
