/// The lifetime events of the view that shows a loader's content.
///
/// Tell a ``ContentLoadingViewModel`` about them through its
/// ``ContentLoadingViewModel/viewLifetime`` property; a model created with a
/// ``LifetimeTrigger`` refreshes or cancels on the events the trigger names.
///
/// ```swift
/// .onAppear { model.viewLifetime = .willAppear }
/// .onDisappear { model.viewLifetime = .didDisappear }
/// ```
public enum ViewLifetime: String, Sendable, Hashable, CaseIterable {
    /// The view (controller) was created.
    case initialized
    /// The view finished loading its hierarchy.
    case didLoad
    /// The view is about to appear on screen.
    case willAppear
    /// The view appeared on screen.
    case didAppear
    /// The view is about to disappear.
    case willDisappear
    /// The view disappeared.
    case didDisappear
}
