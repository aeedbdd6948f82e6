import Benchmark
import Scenarios

// Wall clock and allocations for the refresh scenarios (allocations per cycle: the kit may
// allocate at most 2 more than the bare baseline), the burst and the SQLite scenario.
// `ratio-report` prints the ratios; see Benchmarks/README.md.

/// One refresher of each kind for the whole run: an iteration measures one refresh cycle,
/// not the creation of a model (which a per-iteration refresher would count as the cycle's).
@MainActor
enum Refreshers {
    static let kit = KitRefresher()
    static let bare = BareRefresher()
    static let peer = CombineRefresher()
}
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )

    Benchmark("1 refresh cycle: kit") { benchmark in
        let refresher = await Refreshers.kit
        benchmark.startMeasurement()
        for input in benchmark.scaledIterations { await refresher.cycle(input) }
    }
    Benchmark("1 refresh cycle: bare baseline") { benchmark in
        let refresher = await Refreshers.bare
        benchmark.startMeasurement()
        for input in benchmark.scaledIterations { await refresher.cycle(input) }
    }
    Benchmark("1 refresh cycle: OpenCombine peer") { benchmark in
        let refresher = await Refreshers.peer
        benchmark.startMeasurement()
        for input in benchmark.scaledIterations { await refresher.cycle(input) }
    }
    Benchmark("2 burst of 10,000 refreshes: kit", configuration: .init(maxDuration: .seconds(3), maxIterations: 20)) {
        _ in
        let refresher = await KitRefresher()
        blackHole(await refresher.burst(10_000))
    }
    Benchmark(
        "2 burst of 10,000 refreshes: bare baseline", configuration: .init(maxDuration: .seconds(3), maxIterations: 20)
    ) { _ in
        let refresher = await BareRefresher()
        blackHole(await refresher.burst(10_000))
    }
    Benchmark("5 SQLite sync of 10,000: kit", configuration: .init(maxDuration: .seconds(3), maxIterations: 20)) { _ in
        blackHole(try await SQLiteScenario.kit(SQLiteScenario.contacts(10_000)))
    }
    Benchmark("5 SQLite sync of 10,000: raw sqlite3", configuration: .init(maxDuration: .seconds(3), maxIterations: 20))
    { _ in
        try SQLiteScenario.raw(SQLiteScenario.contacts(10_000))
    }
}
