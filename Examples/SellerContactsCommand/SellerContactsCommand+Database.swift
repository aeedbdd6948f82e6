import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ExampleSupport
import SellerContacts

extension SellerContactsCommand {
    /// The offline-first flow: show what the database holds, then sync into it and show the
    /// result; a failed sync is reported while the stored contacts stay shown.
    static func runOfflineFirst(
        database path: String, apiManager: SellerContactsAPIManager, offline: Bool, retry: RetryPolicy,
        console: Console
    ) async -> Int32 {
        console.write("database: \(path.escapingControlCharacters)\n")
        let repository: Repository<SellerContacts>
        do {
            repository = try SellerContactsRepository.sqlite(path: path, apiManager: apiManager, retry: retry)
        } catch {
            reportError(error, console: console)
            return 1
        }
        return await runOfflineFirst(repository: repository, database: path, offline: offline, console: console)
    }

    /// The offline-first flow over `repository`, whose store is the database at `path`.
    package static func runOfflineFirst(
        repository: Repository<SellerContacts>, database path: String, offline: Bool, console: Console
    ) async -> Int32 {
        // NB: the loader only shows the store; this command runs the sync itself so that it
        // knows when the sync is over, whatever its outcome.
        let loader = SellerContactsStoreLoader(repository: repository, syncsOnRefresh: false)
        let states = loader.states
        loader.refresh()
        guard case .some(let stored) = await settledState(states, console: console) else { return 1 }
        if case .error(let error, _) = stored {
            reportError(error, console: console)
            return 1
        }
        let storedCount = stored.content?.count ?? 0
        printContacts(stored, from: "the database", console: console)
        if offline {
            console.write("sync: skipped (--offline)\n")
            guard storedCount > 0 else {
                console.writeError(
                    "seller-contacts: nothing is stored in \(path) yet; run once without --offline to sync\n")
                return 1
            }
            return 0
        }
        console.write("sync: fetching\n")
        let outcome: SyncOutcome
        do {
            outcome = try await repository.synchronizer.sync()
        } catch {
            console.write("sync: failed; still showing \(storedCount) stored contact\(storedCount == 1 ? "" : "s")\n")
            reportError(error, context: "sync failed: ", console: console)
            return storedCount > 0 ? 0 : 1
        }
        switch outcome {
        case .updated:
            console.write("sync: updated the database\n")
            // NB: read from the store, not awaited from the loader's stream: observers skip a
            // list equal to the last one they told, which another process's write can make of
            // this one, so no emission is guaranteed after a sync.
            do {
                let updated = try await repository.store.fetchAll()
                printContacts(updated.isEmpty ? .empty : .success(updated), from: "the database", console: console)
            } catch {
                reportError(error, console: console)
                return 1
            }
        case .notModified:
            console.write("sync: the database is up to date\n")
        case .skipped:
            console.write("sync: skipped (the stored contacts are fresh)\n")
        }
        return 0
    }

    private static func printContacts(
        _ state: ContentLoadingState<[SellerContacts]>, from source: String, console: Console
    ) {
        let contacts = state.content ?? []
        guard !contacts.isEmpty else {
            console.write("state: empty (\(source) has no contacts)\n")
            return
        }
        console.write("state: success (\(contacts.count) contact\(contacts.count == 1 ? "" : "s") from \(source))\n\n")
        console.write(ContactsTable.render(contacts) + "\n")
    }
}
