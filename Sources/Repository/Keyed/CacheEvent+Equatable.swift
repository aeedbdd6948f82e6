import ContentLoading

extension CachedValue: Equatable where Value: Equatable {
    /// Two delivered values are equal when their values, origins, ages and flags are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value && lhs.origin == rhs.origin && lhs.age == rhs.age && lhs.isStale == rhs.isStale
            && lhs.isRefreshing == rhs.isRefreshing && lhs.isUnchanged == rhs.isUnchanged
    }
}

extension CacheEvent: Equatable where Value: Equatable {
    /// Two events are equal when they are the same case with equal payloads; two errors are
    /// equal as `ContentLoadingState`'s are (same type, and equal or printed the same).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.value(let a), .value(let b)): a == b
        case (.noValue, .noValue): true
        case (.error(let a), .error(let b)): errorsAreEqual(a, b)
        default: false
        }
    }
}
