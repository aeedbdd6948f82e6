import ContentLoading

/// Drops the test's reference to `model` and waits until the model is released (its `deinit`
/// has run), so a test can prove that nothing else holds it.
///
/// ```swift
/// var model: ContactsModel? = ContactsModel(api: api)
/// model!.refresh()
/// try await expectRelease(of: &model)   // fails if a RefreshHandle, a Task or a stream holds it
/// ```
///
/// It waits for the model's `ContentLoadingViewModel.states` stream to finish, which happens
/// in the model's `deinit`: no polling, no sleeps.
///
/// - Parameters:
///   - model: The test's reference; set to `nil` first.
///   - timeout: How long to wait. Defaults to ``StreamRecorder/defaultTimeout``.
/// - Throws: ``ModelNotReleased`` when the model is still alive after `timeout` (the error lists
///   the usual holders); `CancellationError` when the waiting task is cancelled.
@MainActor
public func expectRelease<Model, Input: Sendable, Output: Sendable>(
    of model: inout Model?, timeout: Duration = StreamRecorder<Void>.defaultTimeout
) async throws where Model: ContentLoadingViewModel<Input, Output> {
    // NB: no local reference to the model outlives this line.
    guard let (states, description) = model.map({ (StreamRecorder($0.states), "\(type(of: $0))") }) else { return }
    // NB: weak, so it holds nothing; it says, when the wait fails, whether a load still runs.
    weak let remaining = model
    model = nil
    do {
        _ = try await states.all(timeout: timeout)
    } catch is RecorderTimeout {
        // NB: a model made with a load function (init(load:), init(loadPage:)) is held by its
        // load only weakly; an overridden load holds it until it returns.
        let subclassLoading = remaining.map { $0.isLoading && $0.loadsThroughItself }
        throw ModelNotReleased(model: description, timeout: timeout, isLoading: subclassLoading == true)
    }
}
