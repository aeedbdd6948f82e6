import ContentLoading
import ContentLoadingTesting
import Foundation
import KitTestSupport
import SellerContacts
import Testing

private struct Failure: Error, CustomStringConvertible {
    var description: String { "the network is down" }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ContactsScreenTests {
    let screen: ContactsScreen
    private let contacts = [
        SellerContacts(address: "2 Second Street", order: 2, phone: "+1 555 0102"),
        SellerContacts(address: "1 First Avenue", order: 1, phone: "+1 555 0101"),
    ]

    init() throws {
        screen = ContactsScreen(loader: try loader(fixture: "contacts"))
    }

    @Test func successFillsTheFieldsFromTheLowestOrderWithoutAnAlert() {
        screen.render(.success(contacts))
        #expect(screen.phoneText == "+1 555 0101")
        #expect(screen.addressText == "1 First Avenue")
        #expect(screen.isCallEnabled)
        #expect(screen.alert == nil)
    }

    @Test func errorPresentsAnAlertAndLeavesTheFields() {
        screen.render(.success(contacts))
        screen.render(.error(Failure(), previous: contacts))
        let alert = screen.alert
        #expect(alert?.message == "the network is down")
        #expect(alert?.actions == [.ok])
        #expect(screen.phoneText == "+1 555 0101")
        #expect(screen.addressText == "1 First Avenue")
    }

    @Test func okDismissesTheAlert() {
        screen.render(.error(Failure(), previous: nil))
        screen.choose(.ok)
        #expect(screen.alert == nil)
    }

    @Test func dismissingTheAlertIsADisplayUpdate() async throws {
        screen.render(.error(Failure(), previous: nil))
        let updates = StreamRecorder(screen.displayUpdates)
        screen.choose(.ok)
        let displays = try await updates.values(count: 2)
        #expect(displays.map { $0.alert != nil } == [true, false], "the current display, then the dismissal")
    }

    @Test func emptyShowsNoAlertAndFillsNothing() {
        screen.render(.empty)
        #expect(screen.display == ContactsScreen.Display())
    }

    @Test func emptyAfterContactsClearsTheFields() {
        screen.render(.success(contacts))
        screen.render(.empty)
        #expect(screen.display == ContactsScreen.Display(), "no removed contact left on screen, no call to it")
    }

    @Test func contactWithoutPhoneDisablesTheCallButton() {
        screen.render(.success([SellerContacts(address: "Somewhere", order: 1, phone: nil)]))
        #expect(!screen.isCallEnabled)
        #expect(screen.addressText == "Somewhere")
    }

    @Test func errorsNeverEndTheBinding() async throws {
        let directory = try makeTemporaryDirectory()
        let file = directory.appendingPathComponent("contacts.json")
        let model = SellerContactsLoader(
            apiManager: SellerContactsAPIManager(urlStore: FixedSellerContactsURLStore(file)))
        let bound = ContactsScreen(loader: model)
        var displays = bound.displayUpdates.makeAsyncIterator()
        model.refresh()
        var display = await displays.next()
        while display?.alert == nil { display = await displays.next() }
        #expect(display?.alert?.message.contains(file.path) == true)
        #expect(display?.phoneText == "")
        bound.choose(.ok)
        try FileManager.default.copyItem(at: fixtureURL("contacts"), to: file)
        model.refresh()
        while display?.phoneText.isEmpty ?? false { display = await displays.next() }
        #expect(display?.phoneText == "+1 555 0101")
        #expect(display?.alert == nil)
    }
}
