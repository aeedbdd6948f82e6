import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Testing

/// A view model with a retry policy: `loading` with its content kept while it retries, the
/// error state only after the last attempt, nothing left running when it is cancelled.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RetryingViewModelTests {
    let clock = ManualClock()
    let loader = ControlledLoader<Int, [Int]>()

    func model(attempts: Int = 3) -> ContentLoadingViewModel<Int, [Int]> {
        let retry = RetryPolicy(attempts: attempts, initialDelay: .seconds(1), jitter: .none, clock: clock)
        return ContentLoadingViewModel(retry: retry, load: loader.load)
    }

    @Test func whileItRetriesTheStateStaysLoadingWithTheContentKept() async throws {
        let model = model()
        let first = model.refresh(1)
        loader.complete(try await loader.call(0), returning: [1])
        #expect(await first.settled() == .success([1]))
        let recorder = StateRecorder(model)
        let handle = model.refresh(2)
        loader.complete(try await loader.call(1), throwing: TransientFailure())
        try await clock.waitForSleepers(1)
        #expect(model.state == .loading(previous: [1]), "the first failure is not shown")
        clock.advance(by: .seconds(1))
        loader.complete(try await loader.call(2), returning: [1, 2])
        #expect(await handle.settled() == .success([1, 2]))
        // NB: awaited: the recorder's own task may record the last state after `settled()` returns.
        #expect(
            try await recorder.phases(count: 3) == [.success, .loading, .success], "no error state between the attempts"
        )
    }

    @Test func theErrorStateComesAfterTheLastAttemptAndSaysHowManyWereMade() async throws {
        let model = model(attempts: 3)
        let handle = model.refresh(1)
        for attempt in 0..<3 {
            loader.complete(try await loader.call(attempt), throwing: TransientFailure())
            if attempt < 2 {
                try await clock.waitForSleepers(1)
                clock.advance(by: .seconds(60))
            }
        }
        let state = await handle.settled()
        let error = try #require(state.error as? RetriesExhausted)
        #expect(error.attempts == 3)
        #expect("\(error)" == "service unavailable (3 attempts)")
        #expect(loader.calls.count == 3)
    }

    @Test func aFailureThatIsNotTransientIsShownAfterOneAttempt() async throws {
        let model = model()
        let handle = model.refresh(1)
        loader.complete(try await loader.call(0), throwing: TransientFailure(isTransient: false))
        #expect(await handle.settled().error as? TransientFailure == TransientFailure(isTransient: false))
        #expect(loader.calls.count == 1)
    }

    @Test func releasingTheModelDuringABackoffStopsItWithNoFurtherAttempt() async throws {
        var model: ContentLoadingViewModel<Int, [Int]>? = model()
        model!.refresh(1)
        loader.complete(try await loader.call(0), throwing: TransientFailure())
        try await clock.waitForSleepers(1)
        try await expectRelease(of: &model)
        #expect(clock.sleeperCount == 0, "the wait ended with the model")
        clock.advance(by: .seconds(3_600))
        #expect(loader.calls.count == 1)
    }

    /// Cancels at a random moment (during an attempt or a backoff wait), many times.
    @Test(arguments: [1, 2, 3])
    func cancellingAtRandomMomentsLeavesNoRequestInFlightAndNoErrorState(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let loader = ControlledLoader<Int, [Int]>()
            let clock = ManualClock()
            let retry = RetryPolicy(attempts: 4, initialDelay: .seconds(1), jitter: .none, clock: clock)
            let model = ContentLoadingViewModel<Int, [Int]>(retry: retry, load: loader.load)
            let handle = model.refresh(1)
            let failuresBeforeCancel = Int.random(in: 0...3, using: &random)
            let cancelDuringWait = Bool.random(using: &random)
            for attempt in 0..<failuresBeforeCancel {
                loader.complete(try await loader.call(attempt), throwing: TransientFailure())
                try await clock.waitForSleepers(1)
                if attempt < failuresBeforeCancel - 1 || !cancelDuringWait { clock.advance(by: .seconds(60)) }
            }
            if !cancelDuringWait || failuresBeforeCancel == 0 { _ = try await loader.call(failuresBeforeCancel) }
            model.cancel()
            let state = await handle.settled()
            #expect(state.error == nil, "a cancellation is never an error: \(state)")
            clock.advance(by: .seconds(3_600))
            #expect(loader.pendingCalls.isEmpty, "no request in flight")
            #expect(clock.sleeperCount == 0, "no wait left")
            #expect(loader.calls.count <= failuresBeforeCancel + 1, "no attempt after the cancellation")
        }
    }
}
