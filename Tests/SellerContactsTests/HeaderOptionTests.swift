import Foundation
import KitTestSupport
import SellerContactsCommand
import Testing

/// `seller-contacts --header 'NAME: VALUE'`: sent with every request, its value never printed.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct HeaderOptionTests {
    @Test func headersAreKeptInOrderAndNeverShown() throws {
        let options = try Options.parse(["--header", "Authorization: Bearer s3cr3t", "--header", "X-Trace:  t-1 "])
        #expect(options.headers.map(\.name) == ["Authorization", "X-Trace"])
        #expect(options.headers.map(\.value) == ["Bearer s3cr3t", "t-1"])
        var dumped = ""
        dump(options, to: &dumped)
        for shown in [String(describing: options), String(reflecting: options), dumped] {
            #expect(!shown.contains("s3cr3t") && !shown.contains("t-1"), "\(shown)")
        }
        #expect(String(describing: options.headers[0]) == "Authorization: <redacted>")
    }

    @Test(arguments: [
        ("Bearer s3cr3t", "--header needs 'NAME: VALUE', got an argument without a colon"),
        (": s3cr3t", "--header needs a NAME of letters, digits and -, before the colon"),
        ("Bad Name: s3cr3t", "--header needs a NAME of letters, digits and -, before the colon"),
        ("X-Token: s3cr3t\r\nX-Forged: 1", "--header X-Token: the value holds a control character (a line break?)"),
    ])
    func aBadHeaderIsAUsageErrorThatDoesNotRepeatTheValue(argument: String, message: String) {
        let error = #expect(throws: UsageError.self) { try Options.parse(["--header", argument]) }
        #expect(error?.message == message)
    }

    @Test func theHeaderIsSentAndItsValueNeverPrinted() async throws {
        let fixtures = try fixtureURL("contacts").deletingLastPathComponent()
        let server = try LocalHTTPServer.start(serving: fixtures)
        defer { server.stop() }
        let url = server.url("protected/contacts.json").absoluteString
        let authorized = await runSellerContacts(["--url", url, "--header", "Authorization: Bearer t0"])
        #expect(authorized.status == 0, "\(authorized.errors)")
        #expect(authorized.output.contains("success"))

        let refused = await runSellerContacts(["--url", url, "--header", "Authorization: Bearer s3cr3t-wrong"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("HTTP 401 from \(url)"))
        for text in [authorized.output, authorized.errors, refused.output, refused.errors] {
            #expect(!text.contains("s3cr3t") && !text.contains("Bearer"))
        }
    }
}
