// An app built with Xcode 26's defaults for new projects (see Package.swift): what it writes to
// use the kit, as the README's "Main actor by default" section says.
import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation

// Values that cross to the kit's loads, caches and streams are `nonisolated`: with main-actor
// default isolation they would otherwise be main-actor types, which the kit's `Sendable`
// generics (and `Codable` off the main actor) cannot take.
nonisolated struct Contact: Codable, Sendable, Equatable, Identifiable {
    let id: Int
    var phone: String
}

nonisolated struct ContactsURLs: URLStore {
    let contacts: URL
}

// The API is `nonisolated` too: its calls run off the main actor.
nonisolated struct ContactsAPI: Sendable {
    let urls: ContactsURLs
    let client: APIClient

    func contacts() async throws -> [Contact] {
        try await client.fetch([Contact].self, from: urls.contacts)
    }
}

// A model is main-actor isolated, as it is anyway; the load function it hands to `super.init`
// is `@Sendable` and runs off the main actor, written here as anywhere.
final class ContactsModel: ContentLoadingViewModel<Void, [Contact]> {
    init(api: ContactsAPI) {
        super.init(lifetimeTrigger: .everyAppearance, retry: RetryPolicy(attempts: 3)) { _ in
            try await api.contacts()
        }
    }
}

final class FeedModel: PagingListViewModel<Void, Contact, Int> {
    init() {
        super.init { _, _ in Page(items: [], nextCursor: nil) }
    }
}

// An overridden load says `nonisolated`, as everywhere.
final class OverridingModel: ContentLoadingViewModel<Void, [Contact]> {
    let api: ContactsAPI

    init(api: ContactsAPI) {
        self.api = api
        super.init()
    }

    nonisolated override func load(_ input: Void) async throws -> [Contact] {
        try await api.contacts()
    }
}

/// A cached screen and a closure model, as the app's composition root makes them.
func makeModels(api: ContactsAPI, cachePath: String) throws -> (CachedContentLoader<String, [Contact]>, ContentLoadingViewModel<Void, [Contact]>) {
    let contacts = KeyedRepository<String, [Contact]>(disk: try DiskCache(.file(path: cachePath))) { _ in
        try await api.contacts()
    }
    let cached = CachedContentLoader(repository: contacts)
    let closure = ContentLoadingViewModel<Void, [Contact]> { try await api.contacts() }
    return (cached, closure)
}

func showContacts(api: ContactsAPI) async {
    let model = ContactsModel(api: api)
    let state = await model.refresh().completed()
    print(state)
}

/// The actor a load function written with this app's settings ran on, as its `#isolation`
/// says (the tests check that it is none: the function's type is the kit's, `@Sendable` and
/// nonisolated, so it runs on no actor however the app's defaults are set).
public func theActorALoadFunctionRanOn() async -> String? {
    let model = ContentLoadingViewModel<Void, String?> { _ in (#isolation).map { "\(type(of: $0))" } }
    return await model.refresh().completed().content ?? "no value"
}
