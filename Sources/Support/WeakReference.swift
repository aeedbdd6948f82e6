/// A weak reference to an object, shared by the closures that hold it.
///
/// NB: a class, made once per model: every load task captures it with a retain. A weak
/// reference made for each task (a `[weak self]` capture, or a weak field in the task's
/// context) costs a side-table reference formed, copied and destroyed twice on every load,
/// which showed in the profile of a refresh cycle; `[weak self]` also boxes it in an
/// allocation of its own.
@usableFromInline package final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    @usableFromInline package weak let object: Object?

    @usableFromInline package init(_ object: Object) { self.object = object }
}
