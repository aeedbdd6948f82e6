import ContentLoading
import KitTestSupport
import Testing

/// A load written as the docs show (a function given to `super.init`, or a `nonisolated
/// override`) runs off the main actor: it finishes while the main actor is busy. An override
/// written without `nonisolated` takes the model's main-actor isolation and waits for the main
/// actor, which this check catches.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct LoadIsolationTests {
    @Test func theReadmeSamplesLoadRunsOffTheMainActor() async {
        let model = await GreetingModel()
        #expect(await finishesWhileMainActorIsBusy { _ = try await model.load("Ada") })
    }

    @Test func aLoadWrittenWithoutNonisolatedIsCaught() async {
        let model = await MainActorLoadModel()
        #expect(!(await finishesWhileMainActorIsBusy(within: .milliseconds(300)) { _ = try await model.load(1) }))
    }
}

/// The trap the docs steer away from: an override that takes the class's main-actor isolation.
final class MainActorLoadModel: ContentLoadingViewModel<Int, Int> {
    override func load(_ input: Int) async throws -> Int { input }
}
