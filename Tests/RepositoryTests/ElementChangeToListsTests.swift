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

    /// A list saved whole after an element change was written, whose change arrives after the
    /// save has let its key go and before the save shares its own: the list keeps its own copy
    /// of the element. It showed the older one while the file held the newer (found by
    /// `ListHoldersInterleavingTests` under TSan: a list saved with element 1 while another
    /// list with an older copy of it was being shared).
    @Test func aListSavedWholeAfterAChangeKeepsItsCopyOfTheElement() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.inMemory))
        let lists = KeyedRepository<String, [Contact]>(elements: store, memory: MemoryCache(countLimit: 1)) { _ in [] }
        try await lists.save([Contact(id: 1, phone: "list y")], for: "y")
        let older = ElementChange<Contact>(
            saved: [Contact(id: 1, phone: "list x")], version: store.disk.latestVersion - 1, writtenAt: Date())
        await store.versions.sharing { await store.share(older) }
        #expect(lists.cachedValue(for: "y")?.value == [Contact(id: 1, phone: "list y")])
    }

    /// The same for a detail and its live reader: saved after an element change was written,
    /// it keeps its value when the older change arrives after the save let its key go.
    @Test func aDetailSavedAfterAChangeKeepsItsValue() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.inMemory))
        let details = KeyedRepository<Int, Contact>(elements: store) { Contact(id: $0, phone: "fetched") }
        try await details.save(Contact(id: 1, phone: "first"), for: 1)
        let first = store.disk.latestVersion
        try await details.save(Contact(id: 1, phone: "detail"), for: 1)
        var reader = details.events(for: 1, policy: .returnCacheDontLoad).makeAsyncIterator()
        #expect(await reader.next()?.summary == "memory:\(Contact(id: 1, phone: "detail"))")

        let older = ElementChange<Contact>(saved: [Contact(id: 1, phone: "older")], version: first, writtenAt: Date())
        await store.versions.sharing { await store.share(older) }
        try await details.save(Contact(id: 1, phone: "newest"), for: 1)
        #expect(details.cachedValue(for: 1)?.value == Contact(id: 1, phone: "newest"))
        let next = await reader.next()?.summary
        #expect(next == "local:\(Contact(id: 1, phone: "newest"))", "the older change is not shown")
    }

    /// A fetch that finds a list unchanged confirms the value read before: an element change
    /// older than the confirmation, still on its way, edits the list. It was left out: the
    /// confirmation counted as a write of the whole list (found as a TSan failure of
    /// `ElementStoreWriteTests.concurrentElementSavesAndListFetchesNeverLoseASave`: memory
    /// "server a", the file "saved 10").
    @Test func aListConfirmedAfterAChangeStillTakesIt() async throws {
        let path = try temporaryCachePath()
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in [Contact(id: 1, phone: "server")] }
        try await lists.refresh("a")
        // The save's row is in the file; its change has not reached the list yet.
        let elsewhere = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        try await elsewhere.save(Contact(id: 1, phone: "saved"))
        let saved = elsewhere.disk.latestVersion
        try await lists.refresh("a")  // the same list: a confirmation, after the save
        #expect(store.disk.latestVersion > saved)

        let change = ElementChange<Contact>(saved: [Contact(id: 1, phone: "saved")], version: saved, writtenAt: Date())
        await store.versions.sharing { await store.share(change) }
        #expect(lists.cachedValue(for: "a")?.value == [Contact(id: 1, phone: "saved")])
    }
}
