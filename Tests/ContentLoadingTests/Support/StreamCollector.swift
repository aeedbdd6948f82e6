/// Collects what an `AsyncStream` yields, so a test can await a number of elements.
@MainActor
final class StreamCollector<Element: Sendable> {
    private(set) var received: [Element] = []
    private(set) var isFinished = false
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ stream: AsyncStream<Element>) {
        Task { [weak self] in
            for await element in stream {
                self?.received.append(element)
                self?.resume()
            }
            self?.isFinished = true
            self?.resume()
        }
    }

    /// Waits until `count` elements arrived (or the stream finished) and returns the first `count`.
    func values(count: Int) async -> [Element] {
        if received.count < count && !isFinished {
            await withCheckedContinuation { waiters.append((count, $0)) }
        }
        return Array(received.prefix(count))
    }

    /// Waits until the stream finishes and returns everything it yielded.
    func all() async -> [Element] {
        await values(count: .max)
    }

    private func resume() {
        let ready = waiters.filter { isFinished || received.count >= $0.count }
        waiters.removeAll { isFinished || received.count >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }
}
