/// A weak reference, to capture in a closure by value.
///
/// NB: a closure passed to `Task.init` that captures `[weak self]` stores the weak reference
/// in a box of its own, one more allocation for every task; a `WeakReference` captured
/// instead is stored in the closure's context.
@usableFromInline package struct WeakReference<Object: AnyObject> {
    @usableFromInline package weak var object: Object?

    @inlinable package init(_ object: Object) { self.object = object }
}

extension WeakReference: Sendable where Object: Sendable {}
