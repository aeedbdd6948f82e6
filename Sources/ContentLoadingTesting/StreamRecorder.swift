import ContentLoadingSupport

/// Records what an `AsyncStream` yields so a test can await a number of elements.
///
/// ```swift
/// let pages = StreamRecorder(model.nextPageStateUpdates)
/// model.loadNextPage()
/// #expect(try await pages.values(count: 3) == [.idle, .loading, .idle])
/// ```
///
/// Waiting never sleeps and never hangs a suite: each wait resumes when the recorded elements
/// reach the count or the stream finishes (then it returns what was recorded), and throws
/// ``RecorderTimeout`` (listing what was recorded) when `timeout` passes first, or
/// `CancellationError` when its task is cancelled.
@MainActor
public final class StreamRecorder<Element: Sendable> {
    /// How long a wait lasts by default before it throws ``RecorderTimeout``: 60 seconds (see
    /// ``WaitTimeout/defaultTimeout``).
    public static var defaultTimeout: Duration { .seconds(60) }

    /// Every element recorded so far, oldest first.
    public private(set) var elements: [Element] = []
    /// Whether the stream has finished.
    public private(set) var isFinished = false

    private var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var lastWaiter = 0
    /// How many elements ``next(timeout:)`` has handed out.
    private var taken = 0
    // NB: in a lock so the nonisolated `deinit` can cancel it (`isolated deinit` needs
    // newer Apple runtimes than the kit supports).
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts recording `stream`.
    public convenience init(_ stream: AsyncStream<Element>) {
        self.init(stream, recordingElements: true)
    }

    /// Starts recording `stream`, or only its end when `recordingElements` is `false` (the
    /// elements then come from ``record(_:)``, as `StateRecorder` gives a model's states).
    package init(_ stream: AsyncStream<Element>, recordingElements: Bool) {
        let recording = Task { [weak self] in
            for await element in stream {
                guard let self else { return }
                if recordingElements { self.record(element) }
            }
            self?.finish()
        }
        task.withLock { $0 = recording }
    }

    deinit {
        task.withLock { $0 }?.cancel()
    }

    /// Waits until at least `count` elements are recorded (or the stream finished) and returns
    /// the first `count`; none, at once, for a `count` below 1.
    ///
    /// - Throws: ``RecorderTimeout`` when `timeout` passes first; `CancellationError` when the
    ///   waiting task is cancelled.
    public func values(count: Int, timeout: Duration = defaultTimeout) async throws -> [Element] {
        // NB: a negative count trapped taking a prefix of it.
        let count = max(count, 0)
        try await wait(for: count, timeout: timeout)
        return Array(elements.prefix(count))
    }

    /// The first element not yet returned by an earlier `next`, waiting for it if it has not
    /// arrived; `nil` when the stream finishes first. An element that arrived before the call
    /// is returned, never skipped.
    ///
    /// - Throws: ``RecorderTimeout`` or `CancellationError`, as ``values(count:timeout:)``.
    public func next(timeout: Duration = defaultTimeout) async throws -> Element? {
        let recorded = try await values(count: taken + 1, timeout: timeout)
        guard recorded.count > taken else { return nil }
        taken += 1
        return recorded[taken - 1]
    }

    /// Waits until the stream finishes and returns everything it yielded.
    ///
    /// - Throws: ``RecorderTimeout`` or `CancellationError`, as ``values(count:timeout:)``.
    public func all(timeout: Duration = defaultTimeout) async throws -> [Element] {
        try await values(count: .max, timeout: timeout)
    }

    private func wait(for count: Int, timeout: Duration) async throws {
        guard elements.count < count && !isFinished else { return }
        lastWaiter += 1
        let id = lastWaiter
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil, let self else { return }
            self.end(id, throwing: RecorderTimeout(count: count, timeout: timeout, recorded: self.elements))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                waiters[id] = (count, continuation)
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.end(id, throwing: CancellationError()) }
        }
    }

    private func end(_ id: Int, throwing error: any Error) {
        waiters.removeValue(forKey: id)?.continuation.resume(throwing: error)
    }

    /// Records `element` after those recorded so far.
    package func record(_ element: Element) {
        elements.append(element)
        resumeWaiters()
    }

    private func finish() {
        isFinished = true
        resumeWaiters()
    }

    private func resumeWaiters() {
        for (id, waiter) in waiters where isFinished || elements.count >= waiter.count {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume()
        }
    }
}
