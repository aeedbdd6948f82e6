// The samples of the ContentLoading module's doc comments.
import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// What the doc comments' samples name and do not declare.
enum ContentLoadingDocComments {
    struct Contact: Codable, Sendable, Equatable, Hashable, Identifiable {
        var id: Int
        var phone = ""
    }

    struct Post: Sendable, Identifiable {
        let id: Int
    }

    struct Product: Sendable, Identifiable {
        let id: Int
    }

    struct Result: Sendable {}

    struct ContactsAPI: Sendable {
        struct Products: Sendable {
            var items: [Product] = []
            var total = 0
        }

        struct Posts: Sendable {
            var posts: [Post] = []
            var next: String?
        }

        func contacts() async throws -> [Contact] { [] }
        func contacts(seller: String) async throws -> [Contact] { [] }
        func contacts(after cursor: String?) async throws -> Page<Contact, String> { Page(items: [], nextCursor: nil) }
        func products(_ query: String, offset: Int, limit: Int) async throws -> Products { Products() }
        func posts(topic: String, after cursor: String?) async throws -> Posts { Posts() }
        func search(_ query: String) async throws -> [Result] { [] }
    }

    static func show(_ contacts: [Contact], refreshing: Bool = false) {}
    static func showSpinner() {}
    static func showPlaceholder() {}
    static func showBanner(_ error: any Error, over previous: [Contact]? = nil) {}
    static func presentAlert(_ error: any Error) {}
    static func store(_ contacts: [Contact], _ validators: Validators) {}
    static func keep(_ held: Validators, _ validators: Validators) {}

    struct ContactRow: View {
        let contact: Contact
        init(_ contact: Contact) { self.contact = contact }
        var body: some View { Text(contact.phone) }
    }

    struct PostRow: View {
        let post: Post
        init(_ post: Post) { self.post = post }
        var body: some View { Text("\(post.id)") }
    }
}

// MARK: - Events

extension ContentLoadingDocComments {
    @MainActor static func eventValues(repository: Repository<Contact>) async {
        // sample: Sources/ContentLoading/Events/AsyncSequence+ContentEvents.swift#1
        for await contacts in repository.events().values(onError: { presentAlert($0) }) {
            show(contacts)
        }
        // end sample
    }

    @MainActor static func eventValuesPresentingErrors(repository: Repository<Contact>) async {
        // sample: Sources/ContentLoading/Events/AsyncSequence+ContentEvents.swift#2
        let messages = MessagePresenter()
        for await contacts in repository.events().values(presentingErrorsOn: messages) {
            show(contacts)
        }
        // end sample
    }

    @MainActor static func events(repository: Repository<Contact>) async {
        // sample: Sources/ContentLoading/Events/ContentEvent.swift#1
        for await event in repository.events() {
            switch event {
            case .value(let contacts): show(contacts)
            case .error(let error): showBanner(error)      // the stream goes on
            }
        }
        // end sample
    }

    static func duplicateIDs(contacts: [Contact]) throws {
        // sample: Sources/ContentLoading/Identity/DuplicateIDError.swift#1
        try DuplicateIDError.check(contacts)   // throws "duplicate id 2 at positions 0 and 3 …"
        // end sample
    }
}

// MARK: - Models

extension ContentLoadingDocComments {
    final class TriggeredContactsModel: ContentLoadingViewModel<Void, [Contact]> {
        init(lifetimeTrigger: LifetimeTrigger) {
            super.init(lifetimeTrigger: lifetimeTrigger) { _ in [] }
        }
    }

    @MainActor static func lifetimeTrigger() -> ContentLoadingViewModel<Void, [Contact]> {
        typealias ContactsModel = TriggeredContactsModel
        // sample: Sources/ContentLoading/Lifetime/LifetimeTrigger.swift#1
        // Refresh on every appearance unless the content is under five minutes old,
        // and stop loading when the view goes away.
        let trigger = LifetimeTrigger(
            refreshOn: .willAppear,
            unlessYoungerThan: .seconds(300),
            cancelOn: .didDisappear
        )
        let model = ContactsModel(lifetimeTrigger: trigger)
        // end sample
        return model
    }

    struct ViewLifetimeSample: View {
        let model: ContentLoadingViewModel<Void, [Contact]>

        var body: some View {
            Text("Contacts")
                // sample: Sources/ContentLoading/Lifetime/ViewLifetime.swift#1
                .onAppear { model.viewLifetime = .willAppear }
                .onDisappear { model.viewLifetime = .didDisappear }
                // end sample
        }
    }

    enum Inbox {
        struct Message: Sendable, Identifiable {
            let id: Int
        }

        struct API: Sendable {
            func inbox() async throws -> [Message] { [] }
        }

        @MainActor static func list(api: API) -> ListLoadingViewModel<Void, Message> {
            // sample: Sources/ContentLoading/List/ListLoadingViewModel.swift#1
            let model = ListLoadingViewModel<Void, Message> { _ in try await api.inbox() }

            let row = model.item(at: 99)             // nil when out of range, never a trap
            let changes = model.itemDifferenceByID    // insertions and removals since the previous list
            // end sample
            _ = (row, changes)
            return model
        }
    }

    static func messages(error: any Error) -> [Message] {
        // sample: Sources/ContentLoading/Messages/Message.swift#1
        let failed = Message(error: error, title: "Could not load contacts")
        let confirm = Message(
            title: "Delete the contact?", message: "This cannot be undone.",
            actions: [MessageAction(title: "Delete", role: .destructive), .cancel])
        // end sample
        return [failed, confirm]
    }

    struct MessagePresenterSample: View {
        let presenter: MessagePresenter

        var body: some View {
            Text("Contacts")
                // sample: Sources/ContentLoading/Messages/MessagePresenter.swift#1
                // SwiftUI (Apple platforms):
                .alert(presenter.presented?.title ?? "", isPresented: .constant(presenter.presented != nil),
                       presenting: presenter.presented) { message in
                    ForEach(message.actions, id: \.self) { action in
                        Button(action.title) { presenter.dismiss(choosing: action) }
                    }
                } message: { Text($0.message) }
                // end sample
        }
    }
}

// MARK: - Paging

extension ContentLoadingDocComments {
    struct NextPageFooter: View {
        let model: PagingListViewModel<Void, Contact, String>

        var body: some View {
            // sample: Sources/ContentLoading/Paging/NextPageHandle.swift#1
            // A SwiftUI footer (Apple platforms):
            ProgressView().task { await model.loadNextPage().settled() }
            // end sample
        }
    }

    @MainActor static func offsetPaging(api: ContactsAPI) -> OffsetPagingListViewModel<String, Product> {
        // sample: Sources/ContentLoading/Paging/OffsetPagingListViewModel.swift#1
        let model = OffsetPagingListViewModel<String, Product>(pageSize: 25) { query, offset, limit in
            let response = try await api.products(query, offset: offset, limit: limit)
            return OffsetPage(items: response.items, totalCount: response.total)
        }
        // end sample
        return model
    }

    struct Response: Sendable {
        var items: [Contact] = []
        var nextToken: String?
    }

    struct Day: Sendable {
        var messages: [Contact] = []
        var earlier: String?
        var later: String?
    }

    static func pages(response: Response, today: Day) -> [Page<Contact, String>] {
        // sample: Sources/ContentLoading/Paging/Page.swift#1
        let page = Page(items: response.items, nextCursor: response.nextToken)   // nil: the last page
        let day = Page(items: today.messages, previousCursor: today.earlier, nextCursor: today.later)
        // end sample
        return [page, day]
    }

    struct AnchorSample: View {
        let model: PagingListViewModel<Void, Contact, String>

        var body: some View {
            // sample: Sources/ContentLoading/Paging/PagingListViewModel+Place.swift#1
            ForEach(model.items) { contact in
                ContactRow(contact).onAppear { model.anchor = contact.id }
            }
            // end sample
        }
    }

    struct BothEndsSample: View {
        typealias MessageRow = ContactRow
        let model: PagingListViewModel<Void, Contact, String>

        var body: some View {
            // sample: Sources/ContentLoading/Paging/PagingListViewModel+PreviousPage.swift#1
            List(model.items) { message in
                MessageRow(message).onAppear { model.loadMoreIfNeeded(currentItem: message) }   // both ends
            }
            // end sample
        }
    }

    @MainActor static func persistedFeed(contacts: ElementStore<Contact>, api: ContactsAPI)
        -> PagingListViewModel<Void, Contact, String>
    {
        // sample: Sources/ContentLoading/Paging/PagingListViewModel+Source.swift#1
        let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
            try await api.contacts(after: cursor)
        })
        // end sample
        return feed
    }

    struct PostsSample: View {
        let api: ContactsAPI

        var body: some View {
            // sample: Sources/ContentLoading/Paging/PagingListViewModel.swift#1
            let model = PagingListViewModel<String, Post, String> { topic, cursor in
                let response = try await api.posts(topic: topic, after: cursor)   // off the main actor
                return Page(items: response.posts, nextCursor: response.next)
            }

            ForEach(model.items) { post in
                PostRow(post).onAppear { model.loadMoreIfNeeded(currentItem: post) }
            }
            // end sample
        }
    }

    @MainActor static func prefetching(api: ContactsAPI) -> PagingListViewModel<String, Post, String> {
        // sample: Sources/ContentLoading/Paging/PagingListViewModel.swift#2
        let model = PagingListViewModel<String, Post, String>(prefetchDistance: 10) { topic, cursor in
            let response = try await api.posts(topic: topic, after: cursor)
            return Page(items: response.posts, nextCursor: response.next)
        }
        // end sample
        return model
    }

    @MainActor static func pagingSource(contacts: ElementStore<Contact>, api: ContactsAPI)
        -> PagingListViewModel<Void, Contact, String>
    {
        // sample: Sources/ContentLoading/Paging/PagingSource.swift#1
        let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
            try await api.contacts(after: cursor)          // a Page<Contact, String>
        })
        // end sample
        return feed
    }

    @MainActor static func repeatedCursor(model: PagingListViewModel<Void, Contact, String>) async -> NextPageState {
        // sample: Sources/ContentLoading/Paging/RepeatedCursorError.swift#1
        // the page at cursor "b" answers Page(items: […], nextCursor: "b")
        await model.loadNextPage().settled()
        let state = model.nextPageState   // failed: the page loaded at cursor b gives b as its next cursor: …
        // end sample
        return state
    }
}

// MARK: - Retrying and revalidation

extension ContentLoadingDocComments {
    @MainActor static func retrying(api: ContactsAPI) -> (ContentLoadingViewModel<Void, [Contact]>, KeyedRepository<String, [Contact]>) {
        // sample: Sources/ContentLoading/Retry/RetryPolicy.swift#1
        let retry = RetryPolicy(attempts: 4, initialDelay: .milliseconds(500))
        let model = ContentLoadingViewModel<Void, [Contact]>(retry: retry) { try await api.contacts() }
        let contacts = KeyedRepository<String, [Contact]>(retry: retry) { try await api.contacts(seller: $0) }
        // end sample
        return (model, contacts)
    }

    // sample: Sources/ContentLoading/Retry/RetryableError.swift#1
    struct ServiceDown: RetryableError {
        var isTransient: Bool { true }
        var retryAfter: Duration? { .seconds(5) }
    }
    // end sample

    static func conditionalFetch(client: APIClient, url: URL, held: Validators) async throws {
        // sample: Sources/ContentLoading/Revalidation/FetchResult.swift#1
        switch try await client.fetch([Contact].self, from: url, ifChangedSince: held) {
        case .modified(let contacts, let validators): store(contacts, validators)
        case .notModified(let validators): keep(held, validators)    // nothing was decoded
        }
        // end sample
    }

    static func freshness() {
        // sample: Sources/ContentLoading/Revalidation/Freshness.swift#1
        // Cache-Control: max-age=60          → Freshness(maxAge: .seconds(60))
        // Cache-Control: no-cache            → Freshness(maxAge: .zero): revalidated on every read
        // Cache-Control: no-store            → Freshness(isNoStore: true): kept in memory only
        // Expires: <Date + 2 minutes>        → Freshness(maxAge: .seconds(120))
        // end sample
        _ = [Freshness(maxAge: .seconds(60)), Freshness(maxAge: .zero), Freshness(isNoStore: true)]
    }

    static func validators(client: APIClient, url: URL) async throws -> FetchResult<[Contact]> {
        // sample: Sources/ContentLoading/Revalidation/Validators.swift#1
        let first = try await client.fetch([Contact].self, from: url, ifChangedSince: .none)
        // .modified([…], Validators(entityTag: "\"v7\""))
        let again = try await client.fetch([Contact].self, from: url, ifChangedSince: first.validators)
        // .notModified(Validators(entityTag: "\"v7\""))
        // end sample
        return again
    }
}

// MARK: - State

extension ContentLoadingDocComments {
    @MainActor static func showState(of loader: ContentLoadingViewModel<Void, [Contact]>) {
        // sample: Sources/ContentLoading/State/ContentLoadingState.swift#1
        switch loader.state {
        case .unloaded, .loading(previous: nil):
            showSpinner()
        case .loading(previous: let contacts?):
            show(contacts, refreshing: true)
        case .success(let contacts):
            show(contacts)
        case .empty:
            showPlaceholder()
        case .error(let error, let previous):
            showBanner(error, over: previous)
        }
        // end sample
    }

    static func deferredLoading(machine: inout ContentLoadingStateMachine<String, [Contact]>, key: String) {
        // sample: Sources/ContentLoading/State/ContentLoadingStateMachine+DeferredLoading.swift#1
        guard case .start(let load, _) = machine.refresh(key, defersLoading: true) else { return }
        // state: unloaded, while the load looks in its cache
        machine.showLoading(from: load.id)    // a miss: state loading(previous: nil)
        // end sample
    }

    static func stateMachine(contact: Contact) {
        // sample: Sources/ContentLoading/State/ContentLoadingStateMachine.swift#1
        var machine = ContentLoadingStateMachine<String, [Contact]>()
        guard case .start(let load, cancelling: nil) = machine.refresh("q") else { return }
        machine.receive([contact], isEmpty: false, from: load.id)   // state: success([contact])
        // end sample
        print(machine.state)
    }
}

// MARK: - View models

extension ContentLoadingDocComments {
    @MainActor static func states(of model: ContentLoadingViewModel<Void, [Contact]>) async {
        // sample: Sources/ContentLoading/ViewModel/ContentLoadingViewModel+Streams.swift#1
        for await state in model.states { print(state.phase) }   // unloaded, loading, success…
        // end sample
    }

    @MainActor static func subclass(api: ContactsAPI) async {
        // sample: Sources/ContentLoading/ViewModel/ContentLoadingViewModel.swift#1
        final class ContactsModel: ContentLoadingViewModel<Void, [Contact]> {
            init(api: ContactsAPI) {
                super.init(lifetimeTrigger: .everyAppearance) { _ in
                    try await api.contacts()        // @Sendable: runs off the main actor
                }
            }
        }

        let model = ContactsModel(api: api)
        await model.refresh().settled()             // .success([…]), .empty or .error(…)
        // end sample
    }

    @MainActor static func search(api: ContactsAPI) -> ContentLoadingViewModel<String, [Result]> {
        // sample: Sources/ContentLoading/ViewModel/ContentLoadingViewModel.swift#2
        let model = ContentLoadingViewModel<String, [Result]> { query in try await api.search(query) }
        model.refresh("swift")
        // end sample
        return model
    }

    struct ContactsRepository: Sendable {
        func observeContacts() -> AsyncStream<[Contact]> { AsyncStream { $0.finish() } }
    }

    final class ObservingModel: ContentLoadingViewModel<Void, [Contact]> {
        let repository: ContactsRepository

        init(repository: ContactsRepository) {
            self.repository = repository
            super.init { _ in [] }
        }

        // sample: Sources/ContentLoading/ViewModel/ContentProducer.swift#1
        override func producer(for input: Void) -> ContentProducer<[Contact]> {
            .values(repository.observeContacts())   // yields stored contacts, then every change
        }
        // end sample
    }

    /// A cache of the app's, which says when a key is saved.
    struct ContactsCache: Sendable {
        func value(for key: String) async -> [Contact]? { nil }
        func saves(of key: String) -> AsyncStream<[Contact]> { AsyncStream { $0.finish() } }
        func entries(of key: String) -> AsyncStream<[Contact]?> { AsyncStream { $0.finish() } }
    }

    /// A repository of the app's whose revalidation is a stream of steps.
    struct RevalidatingRepository: Sendable {
        struct Step: Sendable {
            var value: [Contact]
            var isRefreshing: Bool
        }
        func revalidate(_ key: String) -> AsyncStream<Step> { AsyncStream { $0.finish() } }
    }

    final class DeferringModel: ContentLoadingViewModel<String, [Contact]> {
        let cache = ContactsCache()
        let api = ContactsAPI()

        init() { super.init { _ in [] } }

        override func producer(for key: String) -> ContentProducer<[Contact]> {
            let (cache, api) = (cache, api)
            return
                // sample: Sources/ContentLoading/ViewModel/ContentProducer.swift#2
                .deferringLoading { send, showLoading in
                    if let cached = await cache.value(for: key) { await send(.value(cached)) } else { await showLoading() }
                    await send(.value(try await api.contacts(seller: key)))
                }
                // end sample
        }
    }

    final class RevalidatingModel: ContentLoadingViewModel<String, [Contact]> {
        let repository = RevalidatingRepository()

        init() { super.init { _ in [] } }

        override func producer(for key: String) -> ContentProducer<[Contact]> {
            let repository = repository
            return
                // sample: Sources/ContentLoading/ViewModel/ContentProducer.swift#3
                .reporting { load in
                    for await step in repository.revalidate(key) {
                        await load.send(.value(step.value))
                        if !step.isRefreshing { await load.caughtUp() }   // fetched, stored and shown
                    }
                }
                // end sample
        }
    }

    final class ReportingModel: ContentLoadingViewModel<String, [Contact]> {
        let cache = ContactsCache()
        let api = ContactsAPI()

        init() { super.init { _ in [] } }

        override func producer(for key: String) -> ContentProducer<[Contact]> {
            let (cache, api) = (cache, api)
            return
                // sample: Sources/ContentLoading/ViewModel/LoadReporter.swift#1
                .reporting { load in
                    if let cached = await cache.value(for: key) { await load.send(.value(cached)) } else { await load.showLoading() }
                    await load.send(.value(try await api.contacts(seller: key)))
                    await load.caughtUp()                    // the refresh is complete; the load goes on
                    for await saved in cache.saves(of: key) { await load.send(.value(saved)) }
                }
                // end sample
        }

        /// A producer whose source says when its entry was removed.
        func clearingProducer(for key: String) -> ContentProducer<[Contact]> {
            let cache = cache
            return
                // sample: Sources/ContentLoading/ViewModel/LoadReporter.swift#2
                .reporting { load in
                    for await saved in cache.entries(of: key) {          // nil: the entry was removed
                        if let saved { await load.send(.value(saved)) } else { await load.clear() }
                    }
                }
                // end sample
        }
    }

    struct PullToRefresh: View {
        let model: ContentLoadingViewModel<Void, [Contact]>

        var body: some View {
            // sample: Sources/ContentLoading/ViewModel/RefreshHandle.swift#1
            List(model.content ?? []) { ContactRow($0) }
                .refreshable { await model.refresh().completed() }
            // end sample
        }
    }

    final class SearchModel: ContentLoadingViewModel<String, [Result]> {
        init(refreshPolicy: RefreshPolicy) { super.init(refreshPolicy: refreshPolicy) { _ in [] } }
    }

    final class FeedModel: ContentLoadingViewModel<Void, [Post]> {
        init(refreshPolicy: RefreshPolicy) { super.init(refreshPolicy: refreshPolicy) { _ in [] } }
    }

    final class DraftSaver: ContentLoadingViewModel<String, Bool> {
        init(refreshPolicy: RefreshPolicy) { super.init(refreshPolicy: refreshPolicy) { _ in true } }
    }

    @MainActor static func refreshPolicies() -> (SearchModel, FeedModel, DraftSaver) {
        // sample: Sources/ContentLoading/ViewModel/RefreshPolicy.swift#1
        let search = SearchModel(refreshPolicy: .latestWins)      // type-ahead: newest query wins
        let feed = FeedModel(refreshPolicy: .joinInFlight)        // pull-to-refresh: one request at a time
        let saver = DraftSaver(refreshPolicy: .enqueueLatest)     // every save runs, newest last
        // end sample
        return (search, feed, saver)
    }
}
