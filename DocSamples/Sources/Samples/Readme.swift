// The README's opening sample; run by the tests (ReadmeTests).
import ContentLoading

public enum Readme {
    // sample: README.md#1
    /// Greets people; `load` stands in for a network call and runs off the main actor
    /// (`nonisolated`: without it, an override takes the model's main-actor isolation).
    final class GreetingModel: ContentLoadingViewModel<String, [String]> {
        nonisolated override func load(_ name: String) async throws -> [String] {
            guard !name.isEmpty else { throw GreetingError.noName }
            return ["Hello, \(name)!"]
        }
    }

    enum GreetingError: Error { case noName }

    @MainActor func greet() async {
        let model = GreetingModel()
        print(await model.refresh("Ada").settled())   // success(["Hello, Ada!"])
        print(await model.refresh("").settled())      // error(noName, previous: ["Hello, Ada!"])
        print(model.content ?? [])                    // ["Hello, Ada!"]: the last good content is kept
    }
    // end sample

    /// The sample's model, as the tests drive it.
    @MainActor public static func greetingModel() -> ContentLoadingViewModel<String, [String]> { GreetingModel() }
}
