import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// The requests that wait while a batch runs form the next batch; a batch that fails is run
/// again one request at a time, so only the request that fails, fails.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct BatcherTests {
    struct Bad: Error {}

    @Test func requestsThatWaitWhileABatchRunsFormTheNextBatch() async throws {
        let batcher = Batcher<Int, Int>()
        let batches = Locked<[[Int]]>([])
        let firstRuns = SettleSignal<Void>()
        let release = SettleSignal<Void>()
        let run: @Sendable ([Int]) async throws -> [Int] = { batch in
            let isFirst = batches.withLock { batches in
                batches.append(batch)
                return batches.count == 1
            }
            if isFirst {
                firstRuns.resolve(())
                await release.wait()
            }
            return batch.map { $0 * 10 }
        }
        async let first = batcher.submit(1, run: run)
        await firstRuns.wait()
        async let others = withThrowingTaskGroup(of: Int.self) { group in
            for request in 2...4 { group.addTask { try await batcher.submit(request, run: run) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // NB: polled (the batcher has no event for it): the three wait while the first batch runs.
        while batcher.waitingCount < 3 { await Task.yield() }
        release.resolve(())
        #expect(try await first == 10)
        #expect(try await others.sorted() == [20, 30, 40])
        #expect(batches.withLock { $0 }.map { $0.sorted() } == [[1], [2, 3, 4]])
    }

    @Test func aFailingBatchIsRunAgainOneAtATimeSoOnlyTheBadRequestFails() async throws {
        let batcher = Batcher<Int, Int>()
        let run: @Sendable ([Int]) async throws -> [Int] = { batch in
            if batch.contains(0) { throw Bad() }
            return batch
        }
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for request in 0..<6 {
                group.addTask { (request, (try? await batcher.submit(request, run: run)) == request) }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(results == [0: false, 1: true, 2: true, 3: true, 4: true, 5: true])
    }
}
