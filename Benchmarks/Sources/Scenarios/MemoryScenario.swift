import ContentLoading
import Foundation

/// Scenario 7: resident memory across many refresh cycles, and view models that deinitialise.
@MainActor
public enum MemoryScenario {
    final class CountedModel: ContentLoadingViewModel<Int, Int> {
        nonisolated(unsafe) static var deinitialised: Counter?
        deinit { Self.deinitialised?.increment() }
    }

    /// The resident set size in bytes, or `nil` where it cannot be read.
    public static func residentBytes() -> Int? {
        #if os(Linux)
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
                let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }

    /// Runs `cycles` refresh cycles on one model; returns the growth of resident memory in bytes.
    public static func growth(cycles: Int) async -> Int? {
        let refresher = KitRefresher()
        for input in 0..<1_000 { await refresher.cycle(input) }  // warm up
        let before = residentBytes()
        for input in 0..<cycles { await refresher.cycle(input) }
        guard let before, let after = residentBytes() else { return nil }
        return after - before
    }

    /// Creates, refreshes and releases `count` models; returns how many deinitialised.
    public static func released(count: Int) async -> Int {
        let counter = Counter()
        CountedModel.deinitialised = counter
        for input in 0..<count {
            let model = CountedModel { await instantLoad($0) }
            await model.refresh(input).settled()
        }
        return counter.value
    }
}
