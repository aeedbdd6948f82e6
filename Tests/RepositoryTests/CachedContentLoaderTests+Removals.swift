import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Testing

/// A model never keeps showing what its repository removed: a removal makes it `empty`, and
/// its read goes on, so a later save of the key is shown.
extension CachedContentLoaderTests {
    struct Contact: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var name: String
    }

    @Test func aRemovedKeyEmptiesTheModelAndALaterSaveIsShown() async throws {
        let repository = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: try temporaryCachePath())), fetch: { _ in "fetched" })
        let model = CachedContentLoader(repository: repository, policy: .returnCacheElseLoad)
        let recorder = StateRecorder(model)
        #expect(await model.refresh("a").completed() == .success("fetched"))

        try await repository.remove("a")
        #expect(try await recorder.states(count: 4).last == .empty, "the removed value is not shown")
        try await repository.save("saved", for: "a")
        #expect(
            try await recorder.states(count: 5)
                == [.unloaded, .loading(previous: nil), .success("fetched"), .empty, .success("saved")],
            "the read went on")
    }

    @Test func aSignOutEmptiesEveryModel() async throws {
        let repository = KeyedRepository<String, String>(fetch: { "fetched \($0)" })
        let first = CachedContentLoader(repository: repository, policy: .returnCacheElseLoad)
        let second = CachedContentLoader(repository: repository, policy: .returnCacheThenLoad)
        let recorders = (StateRecorder(first), StateRecorder(second))
        #expect(await first.refresh("a").completed() == .success("fetched a"))
        #expect(await second.refresh("b").completed() == .success("fetched b"))

        try await repository.removeAll()
        #expect(try await recorders.0.states(count: 4).last == .empty)
        #expect(try await recorders.1.states(count: 4).last == .empty)
        #expect(first.content == nil && second.content == nil, "nothing of the account is left on screen")
    }

    @Test func aDetailRemovedThroughItsElementStoreLeavesTheModel() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let details = KeyedRepository<Int, Contact>(elements: store) { Contact(id: $0, name: "fetched") }
        let model = CachedContentLoader(repository: details, policy: .returnCacheElseLoad)
        let recorder = StateRecorder(model)
        #expect(await model.refresh(3).completed() == .success(Contact(id: 3, name: "fetched")))

        try await store.remove(id: 3)
        #expect(try await recorder.states(count: 4).last == .empty)
        try await store.save(Contact(id: 3, name: "saved"))
        #expect(try await recorder.states(count: 5).last == .success(Contact(id: 3, name: "saved")))
    }

    @Test func aRequiredCacheThatMissesShowsALaterSave() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let model = CachedContentLoader(repository: repository, policy: .returnCacheDontLoad)
        let recorder = StateRecorder(model)
        #expect(await model.refresh("a").completed() == .empty)

        try await repository.save("saved", for: "a")
        #expect(try await recorder.states(count: 3).last == .success("saved"))
        #expect(loader.calls.isEmpty)
    }
}
