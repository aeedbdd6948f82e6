import MainActorByDefaultApp
import Testing

/// An app built with Xcode 26's defaults (main-actor default isolation, nonisolated async
/// functions running on their caller's actor) still loads off the main actor when it writes a
/// load function as the docs show.
@Suite(.timeLimit(.minutes(1)))
struct MainActorByDefaultTests {
    @Test func aLoadFunctionRunsOnNoActor() async {
        #expect(await theActorALoadFunctionRanOn() == nil)
    }
}
