import ContentLoading
import Foundation
import KitTestSupport
import PagingDemoCommand
import SellerContacts
import Testing

/// The examples' loads run off the main actor: each finishes while the main actor is busy
/// (see `finishesWhileMainActorIsBusy`, which catches a load isolated to the main actor).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ExampleLoadIsolationTests {
    @Test func sellerContactsLoaderLoadsOffTheMainActor() async {
        let loader = await SellerContactsLoader(
            apiManager: SellerContactsAPIManager(urlStore: BundledSellerContactsURLStore()))
        #expect(await finishesWhileMainActorIsBusy { _ = try await loader.load(()) })
    }

    @Test func thePagingDemosPagerLoadsOffTheMainActor() async {
        // NB: its first page fails before any request: the failure, too, comes off the main actor.
        let pager = await CatalogPager(pageSize: 5, failingOncePage: 1)
        let url = URL(fileURLWithPath: "/nonexistent/catalog.json")
        #expect(await finishesWhileMainActorIsBusy { _ = try await pager.loadPage(url, offset: 0, limit: 5) })
    }
}
