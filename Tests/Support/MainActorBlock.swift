import Dispatch
import Foundation

/// Runs `body` while the main actor is busy (a job on it waits until `body` ends), and returns
/// whether `body` finished within `limit`.
///
/// Work that runs off the main actor finishes; work isolated to it (a `load` override written
/// without `nonisolated`, which takes its main-actor class's isolation) cannot start until the
/// main actor is free again, so it does not finish in time. Call it from a task that is not on
/// the main actor.
public func finishesWhileMainActorIsBusy(
    within limit: Duration = .seconds(10), _ body: @escaping @Sendable () async throws -> Void
) async -> Bool {
    let busy = DispatchSemaphore(value: 0)
    let free = DispatchSemaphore(value: 0)
    Task { @MainActor in
        busy.signal()
        free.wait()
    }
    // NB: waited for off the cooperative pool, so the pool keeps its threads.
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            busy.wait()
            continuation.resume()
        }
    }
    defer { free.signal() }
    // NB: whichever ends first answers; a body stuck behind the main actor is left to finish
    // once the main actor is free again.
    let answer = Answer()
    return await withCheckedContinuation { continuation in
        answer.set(continuation)
        Task {
            try? await body()
            answer.give(true)
        }
        Task {
            try? await Task.sleep(for: limit)
            answer.give(false)
        }
    }
}

/// A continuation resumed once, with the first answer given.
private final class Answer: @unchecked Sendable {
    // NB: @unchecked: both properties are read and written under `lock` only.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    private var early: Bool?

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        let ready: Bool? = lock.withLock {
            if let early { return early }
            self.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func give(_ value: Bool) {
        let waiting: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard early == nil else { return nil }
            early = value
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}
