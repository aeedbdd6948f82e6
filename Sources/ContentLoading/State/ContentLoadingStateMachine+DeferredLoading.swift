extension ContentLoadingStateMachine {
    /// Load `id`, started with `defersLoading` from `unloaded`, found nothing to show at once
    /// (a cache miss) and goes on to a slow load: the state becomes `loading(previous: nil)`.
    ///
    /// ```swift
    /// guard case .start(let load, _) = machine.refresh(key, defersLoading: true) else { return }
    /// // state: unloaded, while the load looks in its cache
    /// machine.showLoading(from: load.id)    // a miss: state loading(previous: nil)
    /// ```
    ///
    /// - Returns: `false`, changing nothing, when `id` is not the running load or the state is
    ///   no longer `unloaded` (the load already delivered, or did not defer `loading`).
    @discardableResult
    @inlinable public mutating func showLoading(from id: LoadID) -> Bool {
        guard id == activeLoad, isUnloaded else { return false }
        settledBeforeLoad = .unloaded
        setState(.loading(previous: nil), contentChanged: false)
        return true
    }

    /// Whether the state is `unloaded`: nothing was ever shown, or a deferring load has not
    /// shown anything yet.
    @inlinable var isUnloaded: Bool {
        if case .unloaded = state { true } else { false }
    }

    /// Whether a load runs that has not settled yet: the state is `loading`, or `unloaded`
    /// while a load that defers `loading` looks in its cache.
    var hasUnsettledLoad: Bool {
        guard let activeLoad else { return false }
        return lastSettled.map { $0 < activeLoad } ?? true
    }
}
