import Foundation
import Scenarios

/// 12. Writes that survive: W1–W2.
@MainActor
func outboxRows(runs: Int) async throws -> [Row] {
    var rows: [Row] = []
    let scenario = try await OutboxScenario()
    defer { scenario.stop() }
    // W1: perform until the live reader of a 10,000-element list shows it; the copy of the
    // list's array beside it (what the reader would pay if an edit copied the list).
    for _ in 0..<20 { _ = try await scenario.perform() }
    var samples: [Duration] = []
    var copies: [Duration] = []
    for _ in 0..<500 {
        samples.append(try await scenario.perform())
        copies.append(await time { scenario.arrayCopy() })
    }
    samples.sort()
    copies.sort()
    let (p50, p99, copy) = (samples[samples.count / 2], samples[samples.count * 99 / 100], copies[copies.count / 2])
    rows.append(
        Row(
            scenario:
                "W1. perform until the live reader of 10,000 shows it, disk write included: p99 (p50 \(ms(p50)); copy of the 10,000-element array \(ms(copy)))",
            measured: ms(p99), target: "≤ 2.00 ms", passed: p99 <= .milliseconds(2)))
    rows.append(Row("W1. perform, p50 / copy of the 10,000-element array", p50, over: copy))
    // W2: draining 1,000 queued mutations vs the same requests through APIClient alone.
    _ = try await scenario.clientAlone()
    let (drain, alone) = try await interleavedTimed(
        runs: runs, { try await scenario.drain() }, { try await scenario.clientAlone() })
    rows.append(
        Row(
            "W2. drain 1,000 queued mutations (100 elements × 10) / the same 1,000 PUTs through APIClient alone (\(ms(drain)) vs \(ms(alone)))",
            drain, over: alone, atMost: 1.20))
    return rows
}
