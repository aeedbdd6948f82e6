import ContentLoadingSupport

/// Records what an `AsyncStream` yields so a test can await a number of elements.
///
/// ```swift
/// let pages = StreamRecorder(model.nextPageStateUpdates)
/// model.loadNextPage()
/// #expect(await pages.values(count: 3) == [.idle, .loading, .idle])
/// ```
///
/// Waiting never sleeps: each wait resumes when the recorded elements reach the count, or
/// when the stream finishes (then it returns what was recorded).
@MainActor
public final class StreamRecorder<Element: Sendable> {
    /// Every element recorded so far, oldest first.
    public private(set) var elements: [Element] = []
    /// Whether the stream has finished.
    public private(set) var isFinished = false

    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    // NB: in a lock so the nonisolated `deinit` can cancel it (`isolated deinit` needs
    // newer Apple runtimes than the kit supports).
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts recording `stream`.
    public init(_ stream: AsyncStream<Element>) {
        let recording = Task { [weak self] in
            for await element in stream {
                guard let self else { return }
                self.record(element)
            }
            self?.finish()
        }
        task.withLock { $0 = recording }
    }

    deinit {
        task.withLock { $0 }?.cancel()
    }

    /// Waits until at least `count` elements are recorded (or the stream finished) and returns
    /// the first `count`.
    public func values(count: Int) async -> [Element] {
        if elements.count < count && !isFinished {
            await withCheckedContinuation { waiters.append((count, $0)) }
        }
        return Array(elements.prefix(count))
    }

    /// Waits for the element after the ones already recorded, or `nil` when the stream
    /// finishes first.
    public func next() async -> Element? {
        let index = elements.count
        let recorded = await values(count: index + 1)
        return recorded.count > index ? recorded[index] : nil
    }

    /// Waits until the stream finishes and returns everything it yielded.
    public func all() async -> [Element] {
        await values(count: .max)
    }

    private func record(_ element: Element) {
        elements.append(element)
        resumeWaiters()
    }

    private func finish() {
        isFinished = true
        resumeWaiters()
    }

    private func resumeWaiters() {
        let ready = waiters.filter { isFinished || elements.count >= $0.count }
        waiters.removeAll { isFinished || elements.count >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }
}
