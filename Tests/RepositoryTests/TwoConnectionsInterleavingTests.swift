import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Two connections to one file (two processes; here two `DiskCache`s), each with a repository
/// of the same key: saves, fetches and invalidations through either, interleaved at random.
/// 200 runs, 2,000 in the full fault corpus (`CLK_FULL_FAULT_CORPUS=1`, as `.ci/run` sets it).
///
/// After each run the file holds the last save, or the value of a fetch that started after
/// that save began: a fetch never overwrites, in the file, a save made after it started,
/// whichever connection made either.
@Suite(.timeLimit(.minutes(3)))
struct TwoConnectionsInterleavingTests {
    static let runs = ProcessInfo.processInfo.environment["CLK_FULL_FAULT_CORPUS"] == "1" ? 2_000 : 200

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

/// One run: two repositories over two connections to one file, with fetches the test completes.
private final class TwoConnectionsRun: Sendable {
    let path: String
    let run: Int
    /// How many saves began (through either repository).
    let saves = Locked(0)
    let loaders = [ControlledLoader<String, String>(), ControlledLoader<String, String>()]
    let repositories: [KeyedRepository<String, String>]
    let refreshes = Locked(0)
    let steps = Locked<[String]>([])

    init(path: String, run: Int) throws {
        self.path = path
        self.run = run
        var repositories: [KeyedRepository<String, String>] = []
        for (index, loader) in loaders.enumerated() {
            let saves = saves
            repositories.append(
                KeyedRepository(disk: try DiskCache(.file(path: path))) { key in
                    // NB: the value says which connection fetched it and how many saves had begun
                    // when its request started.
                    let before = saves.withLock { $0 }
                    _ = try await loader.load(key)
                    return "fetch \(index)/\(before)"
                })
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
                try await repositories[side].save("save \(number)", for: "k")
            case 2:
                steps.withLock { $0.append("refresh on \(side)") }
                refreshes.withLock { $0 += 1 }
                Task { [repositories, refreshes] in
                    _ = try? await repositories[side].refresh("k")
                    refreshes.withLock { $0 -= 1 }
                }
            case 3:
                guard let call = loaders[side].pendingCalls.first else { continue }
                steps.withLock { $0.append("complete on \(side)") }
                _ = loaders[side].complete(call, returning: "")
            case 4:
                steps.withLock { $0.append("invalidate on \(side)") }
                repositories[side].invalidate("k")
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
            let fetching = repositories.contains { $0.isFetching("k") }
            guard fetching || refreshes.withLock({ $0 }) > 0 else { break }
            await Task.yield()
        }
        #expect(rounds < 20_000, "run \(run): a fetch was left running")
    }

    private func check() async throws {
        let saved = saves.withLock { $0 }
        guard saved > 0 else { return }
        let file = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { $0 }
        let stored = try await file.value(for: "k", policy: .returnCacheDontLoad)?.value
        // The last save, or a fetch that started after it began.
        let afterLastSave = stored.map { $0 == "save \(saved)" || $0.hasSuffix("/\(saved)") } ?? false
        #expect(
            afterLastSave,
            "run \(run): the file holds \(stored ?? "nothing") after save \(saved): \(steps.withLock { $0 })")
    }
}
