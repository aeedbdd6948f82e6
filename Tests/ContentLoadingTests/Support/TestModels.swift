import ContentLoading

struct LoadFailure: Error, Equatable { let input: Int }

/// A model whose producer is a stream the test feeds, for multi-value loads.
final class StreamingModel: ContentLoadingViewModel<Void, [Int]> {
    let values: AsyncThrowingStream<[Int], any Error>
    let feed: AsyncThrowingStream<[Int], any Error>.Continuation

    init() {
        (values, feed) = AsyncThrowingStream.makeStream()
        super.init()
    }

    override func producer(for input: Void) -> ContentProducer<[Int]> {
        .values(values)
    }
}

/// A subclass that overrides `load` the way apps do.
final class DoublingModel: ContentLoadingViewModel<Int, Int> {
    override func load(_ input: Int) async throws -> Int {
        guard input >= 0 else { throw LoadFailure(input: input) }
        return input * 2
    }
}
