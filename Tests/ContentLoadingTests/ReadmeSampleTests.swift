import ContentLoading
import Testing

// NB: the README's opening sample, verbatim, so the first code a reader sees is known to run.
final class GreetingModel: ContentLoadingViewModel<String, [String]> {
    init() {
        super.init { name in
            guard !name.isEmpty else { throw GreetingError.noName }
            return ["Hello, \(name)!"]
        }
    }
}

enum GreetingError: Error { case noName }

@MainActor
@Suite struct ReadmeSampleTests {
    @Test func sampleBehavesAsTheReadmeSays() async throws {
        let model = GreetingModel()
        #expect(await model.refresh("Ada").settled().description == #"success(["Hello, Ada!"])"#)
        #expect(await model.refresh("").settled().description == #"error(noName, previous: ["Hello, Ada!"])"#)
        #expect(model.content == ["Hello, Ada!"])
    }
}
