// The README's opening sample; run by the tests (ReadmeTests).
import ContentLoading

public enum Readme {
    // sample: README.md#1
    /// Greets people. Its load, which stands in for a network call, is a `@Sendable` function
    /// given to `super.init`: it runs off the main actor, and the compiler checks that it touches
    /// no main-actor state.
    final class GreetingModel: ContentLoadingViewModel<String, [String]> {
        init() {
            super.init { name in
                guard !name.isEmpty else { throw GreetingError.noName }
                return ["Hello, \(name)!"]
            }
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
