extension ContentEvent: Equatable where Value: Equatable {
    /// Two events are equal when they are the same case with equal payloads; errors compare
    /// as a state's do (see ``ContentLoadingState/==(_:_:)``): the same dynamic type, and equal
    /// under that type's `Equatable` conformance or, without one, the same
    /// `String(reflecting:)` description.
    ///
    /// ```swift
    /// #expect(try await events.values(count: 2) == [.value(stored), .error(SyncFailure.offline)])
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.value(let a), .value(let b)): a == b
        case (.error(let a), .error(let b)): errorsAreEqual(a, b)
        default: false
        }
    }
}
