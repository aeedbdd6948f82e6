import Foundation
import Testing

@testable import ContentLoadingRepository

/// How a list hears an element change that a newer one of the same element overtook.
struct ElementChangeToListsTests {
    typealias Contact = ElementStoreTests.Contact

    /// A removal, then a save of the element, heard in the other order: the save puts nothing
    /// back in a list, so the list still leaves the element out.
    @Test func aRemovalReachesAListAfterANewerSaveOfItsElement() async {
        let versions = ElementVersions<Int>()
        await versions.sharing {
            versions.note([7], version: 2)  // the save, heard first
            var removal = ElementChange<Contact>(removed: 7, version: 1, writtenAt: Date())
            removal.versions = versions
            #expect(removal.current().removed == 7)
            var save = ElementChange<Contact>(saved: [Contact(id: 7, phone: "old")], version: 0, writtenAt: Date())
            save.versions = versions
            #expect(save.current().saved.isEmpty, "an older save is still left out")
        }
    }

    @Test func aRemovalOfEveryElementLeavesAListEmpty() async {
        let versions = ElementVersions<Int>()
        await versions.sharing {
            versions.note([7], version: 2)
            var removal = ElementChange<Contact>(version: 1, writtenAt: Date())
            removal.removesAll = true
            removal.versions = versions
            var list = [Contact(id: 7, phone: "saved"), Contact(id: 8, phone: "8")]
            #expect(removal.current().apply(to: &list))
            #expect(list.isEmpty)
        }
    }
}
