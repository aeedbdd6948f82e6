import ContentLoading
import Testing

private struct Failure: Error, Equatable { let code: Int }
private struct Opaque: Error { let text: String }

@Suite struct ContentLoadingStateTests {
    @Test func conveniencesReadEachCase() {
        let states: [ContentLoadingState<Int>] = [
            .unloaded, .loading(previous: 1), .empty, .success(2), .error(Failure(code: 1), previous: 3),
        ]
        #expect(states.map(\.isLoading) == [false, true, false, false, false])
        #expect(states.map(\.value) == [nil, nil, nil, 2, nil])
        #expect(states.map(\.content) == [nil, 1, nil, 2, 3])
        #expect(states.map { $0.error != nil } == [false, false, false, false, true])
        #expect(states.map(\.phase) == [.unloaded, .loading, .empty, .success, .error])
    }

    @Test func plainCasePatternsMatchWhateverIsCarried() {
        let loading = ContentLoadingState<Int>.loading(previous: 7)
        let failed = ContentLoadingState<Int>.error(Failure(code: 1), previous: nil)
        var matched: [String] = []
        if case .loading = loading { matched.append("loading") }
        if case .error = failed { matched.append("error") }
        #expect(matched == ["loading", "error"])
    }

    @Test func equalityComparesPayloads() {
        #expect(ContentLoadingState<Int>.success(1) == .success(1))
        #expect(ContentLoadingState<Int>.success(1) != .success(2))
        #expect(ContentLoadingState<Int>.loading(previous: nil) != .loading(previous: 1))
        #expect(ContentLoadingState<Int>.empty != .unloaded)
    }

    @Test func errorsCompareByEquatableConformanceWhenTheyHaveOne() {
        #expect(ContentLoadingState<Int>.error(Failure(code: 1), previous: 1) == .error(Failure(code: 1), previous: 1))
        #expect(ContentLoadingState<Int>.error(Failure(code: 1), previous: 1) != .error(Failure(code: 2), previous: 1))
        #expect(ContentLoadingState<Int>.error(Failure(code: 1), previous: 1) != .error(Failure(code: 1), previous: 2))
    }

    @Test func errorsWithoutEquatableCompareByTypeAndDescription() {
        #expect(
            ContentLoadingState<Int>.error(Opaque(text: "a"), previous: nil) == .error(Opaque(text: "a"), previous: nil)
        )
        #expect(
            ContentLoadingState<Int>.error(Opaque(text: "a"), previous: nil) != .error(Opaque(text: "b"), previous: nil)
        )
        #expect(
            ContentLoadingState<Int>.error(Opaque(text: "a"), previous: nil) != .error(Failure(code: 1), previous: nil))
    }

    @Test func descriptionNamesTheCaseAndPayload() {
        #expect(ContentLoadingState<Int>.loading(previous: nil).description == "loading(previous: nil)")
        #expect(ContentLoadingState<Int>.success(3).description == "success(3)")
    }
}
