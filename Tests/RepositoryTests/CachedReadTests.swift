import ContentLoading
import Foundation
import Testing

@testable import ContentLoadingRepository

/// The rules of one read of a `CachedContentLoader`, step by step, without a model.
@Suite struct CachedReadTests {
    struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }

    static func value(_ text: String, unchanged: Bool = false, refreshing: Bool = false) -> ReadStep<String> {
        .event(
            .value(
                CachedValue(
                    value: text, origin: .memory, age: .zero, isStale: false, isRefreshing: refreshing,
                    isUnchanged: unchanged)))
    }

    /// The actions each step asks for, as text.
    static func run(_ policy: CachePolicy, _ steps: [ReadStep<String>]) -> [String] {
        var read = CachedRead<String>(policy: policy)
        return steps.map { step in
            read.actions(for: step).map { action in
                switch action {
                case .send(.value(let value)): "value \(value)"
                case .send(.error(let error)): "error \(error)"
                case .clear: "clear"
                case .showLoading: "loading"
                case .caughtUp: "caught up"
                case .refreshing(let refreshing): refreshing ? "refreshing" : "not refreshing"
                }
            }.joined(separator: ", ")
        }
    }

    @Test func aNetworkFirstFailureShowsTheCachedValueWithTheErrorBesideIt() {
        let steps: [ReadStep<String>] = [
            .fetchingWithoutValue, .event(.error(Offline())), Self.value("cached"), .caughtUp,
        ]
        #expect(
            Self.run(.loadElseReturnCache, steps) == [
                "loading", "not refreshing", "not refreshing, value cached, error offline",
                "not refreshing, caught up",
            ], "no blank error before the cached value, and the error not lost after it")
    }

    @Test func aNetworkFirstFailureWithNothingCachedIsTheError() {
        let steps: [ReadStep<String>] = [
            .fetchingWithoutValue, .event(.error(Offline())), .event(.noValue), .event(.error(Offline())),
        ]
        #expect(
            Self.run(.loadElseReturnCache, steps) == [
                "loading", "not refreshing", "not refreshing, error offline", "not refreshing, error offline",
            ], "not cleared; a later failure, which no fallback follows, is shown at once")
    }

    @Test func anUnreadableEntryBeforeANetworkFirstFetchIsShownAtOnce() {
        struct Unreadable: Error, CustomStringConvertible { var description: String { "unreadable" } }
        let steps: [ReadStep<String>] = [.event(.error(Unreadable())), .fetchingWithoutValue, Self.value("fetched")]
        #expect(
            Self.run(.loadElseReturnCache, steps) == [
                "not refreshing, error unreadable", "loading", "not refreshing, value fetched",
            ], "not held behind the fetched value")
    }

    @Test func aFailureOfAReadThatShowsAValueIsShownAtOnce() {
        for policy in [CachePolicy.returnCacheThenLoad, .loadElseReturnCache] {
            #expect(
                Self.run(policy, [Self.value("cached", refreshing: true), .event(.error(Offline()))]) == [
                    "refreshing, value cached", "not refreshing, error offline",
                ], "\(policy)")
        }
    }

    @Test func aRemovalDropsWhatWasShownAndAConfirmationIsNotSentAgain() {
        let steps: [ReadStep<String>] = [
            Self.value("a", refreshing: true), Self.value("a", unchanged: true), .event(.noValue), Self.value("b"),
        ]
        #expect(
            Self.run(.returnCacheThenLoad, steps) == [
                "refreshing, value a", "not refreshing", "not refreshing, clear", "not refreshing, value b",
            ])
    }

    @Test func anInvalidationsFetchSaysRefreshingOnlyOverAValue() {
        #expect(
            Self.run(.returnCacheElseLoad, [.revalidating, Self.value("a"), .revalidating]) == [
                "", "not refreshing, value a", "refreshing",
            ])
    }
}
