import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

/// The generic message model: messages with actions, a presenter, and errors routed to it.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct MessageTests {
    struct Offline: Error, CustomStringConvertible {
        var description: String { "the network is offline" }
    }

    @Test func aMessageHasOneOKActionByDefaultAndAnErrorsTextAsItsMessage() {
        let message = Message(error: Offline(), title: "Could not sync")
        #expect(message == Message(title: "Could not sync", message: "the network is offline", actions: [.ok]))
        #expect(MessageAction.ok.role == .default)
        #expect(MessageAction.cancel.role == .cancel)
    }

    @Test func thePresenterShowsOneMessageAndOnlyItsActionsDismissIt() {
        let presenter = MessagePresenter()
        #expect(!presenter.dismiss(choosing: .ok), "nothing presented")
        let delete = MessageAction(title: "Delete", role: .destructive)
        presenter.present(Message(title: "Delete?", message: "", actions: [delete, .cancel]))
        #expect(!presenter.dismiss(choosing: .ok), "not one of its actions")
        #expect(presenter.presented?.title == "Delete?")
        presenter.present(Message(title: "Newer", message: ""))
        #expect(presenter.presented?.title == "Newer", "a newer message replaces the one shown")
        #expect(presenter.presentedCount == 2)
        #expect(presenter.dismiss(choosing: .ok))
        #expect(presenter.presented == nil)
    }

    @Test func errorsArePresentedAndTheValuesKeepFlowingInOrder() async throws {
        let presenter = MessagePresenter()
        let (events, input) = AsyncStream<ContentEvent<Int>>.makeStream()
        let values = events.values(presentingErrorsOn: presenter) { Message(error: $0, title: "Sync failed") }
        let (seen, output) = AsyncStream<(Int, String?)>.makeStream()
        let reader = Task { @MainActor in
            // Each value with the message presented when it arrived: the error came first.
            for await value in values { output.yield((value, presenter.presented?.title)) }
            output.finish()
        }
        input.yield(.value(1))
        input.yield(.error(Offline()))
        input.yield(.value(2))
        input.finish()
        let recorder = StreamRecorder(seen)
        let pairs = try await recorder.all()
        #expect(pairs.map(\.0) == [1, 2])
        #expect(pairs.map(\.1) == [nil, "Sync failed"])
        #expect(presenter.presented?.message == "the network is offline")
        await reader.value
    }
}
