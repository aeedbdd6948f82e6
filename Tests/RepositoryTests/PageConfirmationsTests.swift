import Foundation
import Testing

@testable import ContentLoadingRepository

/// What the store remembers of the stored pages a source answered "not modified" for.
struct PageConfirmationsTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aConfirmationHoldsForTheRowItConfirmedOnly() {
        let confirmations = PageConfirmations()
        let page = PageConfirmations.page("pages:[Contact]|feed", request: #""2""#)
        confirmations.confirm(page, version: 3, at: date)
        #expect(confirmations.confirmedAt(page, version: 3) == date)
        #expect(confirmations.confirmedAt(page, version: 4) == nil, "the page was written since")
        #expect(
            confirmations.confirmedAt(PageConfirmations.page("pages:[Contact]|feed", request: nil), version: 3) == nil)
    }

    @Test func theNewestThousandConfirmationsAreKept() {
        let confirmations = PageConfirmations()
        for page in 0...PageConfirmations.limit { confirmations.confirm("\(page)", version: 1, at: date) }
        #expect(confirmations.confirmedAt("0", version: 1) == nil, "the oldest went")
        #expect(confirmations.confirmedAt("1", version: 1) == date)

        confirmations.confirm("1", version: 1, at: date + 1)  // NB: confirmed again: now the newest
        confirmations.confirm("extra", version: 1, at: date)
        #expect(confirmations.confirmedAt("1", version: 1) == date + 1)
        #expect(confirmations.confirmedAt("2", version: 1) == nil)
    }
}
