import ContentLoading
import ContentLoadingRepository
import Foundation
import SellerContacts
import Testing

@testable import Samples

/// What the doc comments' samples say in their comments, checked.
struct DocCommentClaimsTests {
    @Test func aDuplicateIDNamesTheIDAndBothPositions() throws {
        let contacts = [2, 5, 7, 2].map { ContentLoadingDocComments.Contact(id: $0) }
        let error = try #require(throws: DuplicateIDError.self) { try ContentLoadingDocComments.duplicateIDs(contacts: contacts) }
        #expect("\(error)".hasPrefix("duplicate id 2 at positions 0 and 3"), "\(error)")
    }

    @Test func anEncodableKeyIsStoredAsItsJSON() {
        #expect(RepositoryDocComments.SellerID(rawValue: 42).persistentKey == #"{"rawValue":42}"#)
    }

    @Test func theLiveStoreAppendsItsPath() {
        #expect(SellerContactsDocComments.liveURL().absoluteString == "https://api.example.com/v1/seller/contacts")
    }

    @MainActor @Test func theBundledLoaderShowsTheContactsSortedByOrder() async throws {
        let contacts = try #require(await SellerContactsDocComments.loader().value)
        #expect(!contacts.isEmpty)
        #expect(contacts.map(\.order) == contacts.map(\.order).sorted())
    }
}
