// The sample of "The single source of truth" (SingleSourceOfTruth.md), over the worked example.
import ContentLoadingRepository
import Foundation
import SellerContacts

public enum SingleSourceOfTruth {
    @MainActor public static func sample(baseURL: URL, databasePath: String) throws -> ContactsScreen {
        // sample: Sources/Repository/ContentLoadingRepository.docc/SingleSourceOfTruth.md#1
        let api = SellerContactsAPIManager(urlStore: LiveSellerContactsURLStore(baseURL: baseURL))
        let repository = try SellerContactsRepository.sqlite(path: databasePath, apiManager: api)
        let loader = SellerContactsStoreLoader(repository: repository)
        let screen = ContactsScreen(loader: loader)
        loader.refresh()
        // end sample
        return screen
    }
}
