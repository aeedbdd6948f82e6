import ContentLoading
import ContentLoadingNetworking
import Foundation
import Testing

/// `TransportResponse.freshness`: what `Cache-Control` and `Expires` say (RFC 9111).
@Suite struct FreshnessParsingTests {
    static let url = URL(string: "https://example.com/contacts")!

    func freshness(_ headers: [String: String]) -> Freshness? {
        TransportResponse(url: Self.url, statusCode: 200, headers: headers, body: Data()).freshness
    }

    @Test(arguments: [
        ("max-age=60", Freshness(maxAge: .seconds(60))),
        ("public, MAX-AGE=\"90\", must-revalidate", Freshness(maxAge: .seconds(90))),
        ("max-age=60, max-age=5", Freshness(maxAge: .seconds(60))),
        ("max-age=-1", Freshness(maxAge: .zero)),
        ("max-age=soon", Freshness(maxAge: .zero)),
        ("max-age=99999999999999999999", Freshness(maxAge: .seconds(1 << 31))),
        ("no-cache", Freshness(maxAge: .zero)),
        ("no-cache, max-age=60", Freshness(maxAge: .zero)),
        ("no-cache=\"Set-Cookie\", max-age=60", Freshness(maxAge: .seconds(60))),
        ("no-store", Freshness(isNoStore: true)),
        ("private, no-store, max-age=10", Freshness(maxAge: .seconds(10), isNoStore: true)),
    ])
    func cacheControl(value: String, expected: Freshness) {
        #expect(freshness(["Cache-Control": value]) == expected)
    }

    @Test func nothingSaidIsNil() {
        #expect(freshness([:]) == nil)
        #expect(freshness(["Cache-Control": "public, s-maxage=600"]) == nil)
    }

    @Test func expiresCountsFromDateAndMaxAgeWins() {
        let date = "Tue, 24 Nov 2026 10:00:00 GMT"
        #expect(
            freshness(["Date": date, "Expires": "Tue, 24 Nov 2026 10:02:00 GMT"]) == Freshness(maxAge: .seconds(120)))
        #expect(freshness(["Date": date, "Expires": "Tue, 24 Nov 2026 09:00:00 GMT"]) == Freshness(maxAge: .zero))
        #expect(freshness(["Expires": "0"]) == Freshness(maxAge: .zero), "not a date: already expired")
        #expect(
            freshness(["Cache-Control": "max-age=5", "Date": date, "Expires": "Tue, 24 Nov 2026 10:02:00 GMT"])
                == Freshness(maxAge: .seconds(5)))
    }

    /// What a shared cache (a CDN) held the response for counts against its lifetime.
    @Test func anAgeComesOffTheLifetime() {
        #expect(freshness(["Cache-Control": "max-age=600", "Age": "590"]) == Freshness(maxAge: .seconds(10)))
        #expect(freshness(["Cache-Control": "max-age=600", "Age": "900"]) == Freshness(maxAge: .zero))
        #expect(freshness(["Cache-Control": "max-age=600", "Age": " 100, 7"]) == Freshness(maxAge: .seconds(500)))
        #expect(freshness(["Cache-Control": "max-age=600", "Age": "soon"]) == Freshness(maxAge: .seconds(600)))
        #expect(freshness(["Cache-Control": "max-age=600", "Age": "-5"]) == Freshness(maxAge: .seconds(600)))
        let date = "Tue, 24 Nov 2026 10:00:00 GMT"
        #expect(
            freshness(["Date": date, "Expires": "Tue, 24 Nov 2026 10:02:00 GMT", "Age": "100"])
                == Freshness(maxAge: .seconds(20)))
        #expect(freshness(["Age": "100"]) == nil, "an age alone says nothing of the lifetime")
        #expect(freshness(["Cache-Control": "no-store", "Age": "100"]) == Freshness(isNoStore: true))
    }

    @Test func theValidatorsCarryIt() {
        let response = TransportResponse(
            url: Self.url, statusCode: 200, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"], body: Data())
        #expect(response.validators == Validators(entityTag: "\"v1\"", freshness: Freshness(maxAge: .seconds(60))))
        #expect(!response.validators.isEmpty)
        #expect(Validators(freshness: Freshness(maxAge: .zero)).isEmpty, "freshness does not identify a copy")
    }
}
