/// Runs the requests that wait together as one batch: while a batch runs, new requests queue,
/// and the next batch takes all of them. A batch that fails is run again one request at a
/// time, so a request that fails, fails alone.
///
/// ```swift
/// let writes = Batcher<Row, Int>()
/// let version = try await writes.submit(row) { rows in try await disk.write(rows) }   // one transaction for the rows waiting together
/// ```
///
/// Callers of one batcher pass the same `run`: the batch is run by whichever one it reaches.
package final class Batcher<Request: Sendable, Response: Sendable>: Sendable {
    private typealias Run = @Sendable ([Request]) async throws -> [Response]
    private struct Waiting: Sendable {
        let request: Request
        let done: CheckedContinuation<Response, any Error>
    }

    private let state = Locked<(waiting: [Waiting], running: Bool)>(([], false))

    package init() {}

    /// How many requests wait for the next batch.
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `request` in the next batch, with `run`, which must return one response per
    /// request, in order.
    package func submit(_ request: Request, run: @escaping @Sendable ([Request]) async throws -> [Response])
        async throws -> Response
    {
        try await withCheckedThrowingContinuation { done in
            let leads = state.withLock { state in
                state.waiting.append(Waiting(request: request, done: done))
                defer { state.running = true }
                return !state.running
            }
            if leads { Task { await self.drain(with: run) } }
        }
    }

    /// Runs the waiting requests, batch after batch, until none waits.
    private func drain(with run: Run) async {
        while let batch = state.withLock({ state -> [Waiting]? in
            guard !state.waiting.isEmpty else {
                state.running = false
                return nil
            }
            defer { state.waiting = [] }
            return state.waiting
        }) {
            do {
                let responses = try await run(batch.map(\.request))
                for (waiting, response) in zip(batch, responses) { waiting.done.resume(returning: response) }
            } catch {
                guard batch.count > 1 else {
                    batch[0].done.resume(throwing: error)
                    continue
                }
                // NB: run together they failed together; one at a time, each fails alone.
                for waiting in batch {
                    do {
                        let responses = try await run([waiting.request])
                        waiting.done.resume(returning: responses[0])
                    } catch {
                        waiting.done.resume(throwing: error)
                    }
                }
            }
        }
    }
}
