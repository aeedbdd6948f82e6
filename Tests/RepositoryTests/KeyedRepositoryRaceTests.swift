import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Saves interleaved with fetches at random: no value of a fetch that started before a save is
/// ever visible after that save, to a reader or in the tiers.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryRaceTests {
    /// 2 × 5,000 runs of 2 to 7 random steps: start a fetch, complete one, save.
    @Test(arguments: [1, 2])
    func savesAlwaysWinOverFetchesThatStartedBeforeThem(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        for run in 0..<RandomizedRuns.count(full: 5_000, usual: 5_000) {
            try await oneRun(&random, run: run)
        }
    }

    private func oneRun(_ random: inout SeededGenerator, run: Int) async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let reader = record(repository.events(for: "k", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)  // noValue: subscribed
        var saves = 0
        /// For each fetch call: how many saves had been made when it started.
        var savesBeforeFetch: [Int: Int] = [:]
        var refreshes: [Task<Void, Never>] = []
        for _ in 0..<Int(random.next() % 6 + 2) {
            switch random.next() % 3 {
            case 0 where !repository.isFetching("k"):
                let index = loader.calls.count
                refreshes.append(Task { _ = try? await repository.refresh("k") })
                _ = try await loader.call(index)
                savesBeforeFetch[index] = saves
            case 1:
                if let call = loader.pendingCalls.first {
                    loader.complete(call, returning: "fetch \(call.index)")
                    await repository.fetchSettled("k")
                }
            default:
                saves += 1
                try await repository.save("save \(saves)", for: "k")
            }
        }
        for call in loader.pendingCalls { loader.complete(call, returning: "fetch \(call.index)") }
        for refresh in refreshes { await refresh.value }

        // Replay what the reader saw: after "save n", no fetch that started before it.
        var seenSaves = 0
        for event in reader.elements.dropFirst() {
            guard let value = event.cachedValue?.value else { continue }
            let parts = value.split(separator: " ")
            if parts[0] == "save" {
                seenSaves = Int(parts[1])!
            } else {
                let fetchedAfter = savesBeforeFetch[Int(parts[1])!]!
                #expect(fetchedAfter >= seenSaves, "run \(run): \(value) after save \(seenSaves)")
            }
        }
        let final = try await repository.value(for: "k", policy: .returnCacheDontLoad)?.value
        if saves > 0, let final, final.hasPrefix("fetch") {
            #expect(savesBeforeFetch[Int(final.split(separator: " ")[1])!]! == saves, "run \(run): final \(final)")
        }
    }
}
