import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import ContentLoadingSupport
import ExampleSupport
import Foundation
import SellerContacts

extension SellerContactsCommand {
    /// How the cache flow reads the contacts.
    enum CacheRead {
        /// Every value a read with the policy gives, until it has nothing more on the way.
        case events(CachePolicy)
        /// One value no older than `maxAge`: the cached one, or the fetched one.
        case fresh(maxAge: Duration)
    }

    /// The keyed-cache flow: reads the contacts of the source URL through a memory tier and
    /// the cache file at `path` as `read` says, printing each value with its origin and age.
    /// The contacts are stored as records (each contact once, the list as their ids) beside an
    /// outbox of edits: `edit` (if any) is performed, then the edits pending from earlier runs
    /// and it are sent, in order.
    static func runCached(
        cache path: String, read: CacheRead, source: URL, apiManager: SellerContactsAPIManager,
        retry: RetryPolicy, edit: PhoneEdit?, console: Console
    ) async -> Int32 {
        console.write("cache: \(path.escapingControlCharacters)\n")
        let contacts: ElementStore<SellerContacts>
        let repository: KeyedRepository<String, [SellerContacts]>
        do {
            contacts = ElementStore(disk: try DiskCache(.file(path: path)))
        } catch {
            reportError(error, console: console)
            return 1
        }
        // NB: the fetch sends the ETag stored with the cached value; an unchanged server
        // answers 304 and nothing is downloaded or decoded.
        repository = KeyedRepository(elements: contacts, retry: retry) { _, validators in
            switch try await apiManager.sellerContacts(ifChangedSince: validators) {
            case .modified(let contacts, let validators): .modified(contacts.sortedByOrder(), validators)
            case .notModified(let validators): .notModified(validators)
            }
        }
        // NB: made paused, the outbox sends nothing until the read is shown and the edit
        // performed; then one run sends what earlier runs left pending and the edit, in order.
        let outbox = Outbox(
            store: contacts, environment: apiManager, mutations: [PhoneEdit.self], retryPolicy: retry,
            isPaused: true)
        // NB: the source URL, redacted, is the key: two sources never share an entry, and no
        // password or token reaches the file (URLs that differ only in those share one). A value
        // reaches the read only once the disk has it, so the command can exit once it is shown.
        let key = source.redactedForDisplay
        var status =
            switch read {
            case .events(let policy):
                await show(repository.events(for: key, policy: policy), policy: policy, console: console)
            case .fresh(let maxAge): await showFresh(repository, key: key, maxAge: maxAge, console: console)
            }
        if let edit { status = await perform(edit, outbox: outbox, contacts: contacts, console: console) }
        if source.scheme == "http" || source.scheme == "https" { await outbox.resume() }
        if edit != nil && status == 0 {
            status = await show(
                repository.events(for: key, policy: .returnCacheDontLoad), policy: .returnCacheDontLoad,
                console: console)
        }
        await reportPending(outbox, console: console)
        return status
    }

    /// Prints the events of a read until it has nothing more on the way; returns the exit status.
    private static func show(
        _ events: AsyncStream<CacheEvent<[SellerContacts]>>, policy: CachePolicy, console: Console
    ) async -> Int32 {
        var shown = false
        for await event in events {
            switch event {
            case .value(let cached):
                if cached.isUnchanged && shown {
                    console.write("not modified: the contacts above are current (their age starts again)\n")
                } else {
                    print(cached, console: console)
                }
                shown = true
                if !cached.isRefreshing { return 0 }
            case .noValue:
                console.write("no cached value\n")
                return shown || policy == .returnCacheDontLoad ? 0 : 1
            case .error(let error as CacheError) where error.operation == "read" || error.operation == "decode":
                // NB: an entry that cannot be read is a miss (and is removed): the read goes on
                // as on a miss, with a fetch or "no value".
                console.write("error: the cached entry cannot be read; it is dropped\n")
                reportError(error, console: console)
            case .error(let error):
                let outcome =
                    shown
                    ? "the refresh failed; the value above stays"
                    : policy == .loadElseReturnCache ? "the fetch failed; reading the cache" : "nothing to show"
                console.write("error: \(outcome)\n")
                reportError(error, console: console)
                // NB: a network-first read answers a failed fetch with the cached value or
                // "no value", which follows.
                if policy != .loadElseReturnCache { return shown ? 0 : 1 }
            }
        }
        return 1
    }

    /// Prints the value of `key` no older than `maxAge` (the cached one, or the fetched one);
    /// returns the exit status.
    private static func showFresh(
        _ repository: KeyedRepository<String, [SellerContacts]>, key: String, maxAge: Duration, console: Console
    ) async -> Int32 {
        do {
            guard let cached = try await repository.freshValue(for: key, maxAge: maxAge) else {
                console.write("no value: the contacts were removed while they were fetched\n")
                return 1
            }
            print(cached, console: console)
            return 0
        } catch {
            console.write("error: no contacts younger than \(spokenSeconds(maxAge)) to show\n")
            reportError(error, console: console)
            return 1
        }
    }

    /// "value: 3 contacts from disk, 12.5 s old (stale), refreshing", then the table.
    private static func print(_ cached: CachedValue<[SellerContacts]>, console: Console) {
        let count = cached.value.count
        var line =
            "value: \(count) contact\(count == 1 ? "" : "s") from \(cached.origin), \(spokenSeconds(cached.age)) old"
        if cached.isStale { line += " (stale)" }
        if cached.isUnchanged { line += ", not modified" }
        if cached.isRefreshing { line += ", refreshing" }
        console.write(line + "\n\n" + ContactsTable.render(cached.value) + "\n")
    }

}
