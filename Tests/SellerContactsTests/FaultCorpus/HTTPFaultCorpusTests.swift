import Foundation
import KitTestSupport
import SellerContactsCommand
import Testing

/// An HTTP fault the fixture server produces, the options to meet it with, and what the
/// error line must name.
struct HTTPFault: Sendable, CustomTestStringConvertible {
    let route: String
    let options: [String]
    let mentioning: [String]

    var testDescription: String { route }

    static let all = [
        HTTPFault(route: "status/204", options: [], mentioning: ["empty response body from"]),
        HTTPFault(route: "redirect-loop", options: [], mentioning: ["too many redirects"]),
        HTTPFault(route: "status/404", options: [], mentioning: ["HTTP 404 from"]),
        HTTPFault(route: "status/429", options: [], mentioning: ["HTTP 429 from"]),
        HTTPFault(route: "status/500", options: [], mentioning: ["HTTP 500 from"]),
        HTTPFault(route: "status/503", options: [], mentioning: ["HTTP 503 from"]),
        HTTPFault(route: "silence", options: ["--timeout", "0.5"], mentioning: ["timed out after 500ms"]),
        HTTPFault(route: "truncated", options: [], mentioning: ["could not load"]),
        HTTPFault(route: "short-length", options: [], mentioning: ["malformed JSON at"]),
        HTTPFault(route: "trickle/100/100", options: ["--deadline", "1"], mentioning: ["deadline of 1s"]),
        HTTPFault(route: "gzip-bomb/64", options: [], mentioning: ["larger than the limit of 32 MiB"]),
        HTTPFault(route: "hostile", options: [], mentioning: ["HTTP 500 from", #"oops\nseller-contacts: forged"#]),
        HTTPFault(route: "redirect?to=file%3A%2F%2Flocalhost%2Fetc%2Fpasswd", options: [], mentioning: ["not http(s)"]),
    ]
}

/// `seller-contacts` against every HTTP fault of the fixture server (a real process on
/// 127.0.0.1): exit status 1 and one clear line naming the URL and what failed, within the
/// time the options allow.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct HTTPFaultCorpusTests {
    @Test(arguments: HTTPFault.all)
    func eachFaultIsOneClearLine(fault: HTTPFault) async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let url = server.url(fault.route)
        let result = await runSellerContacts(["--url", url.absoluteString] + fault.options)
        let shownURL = url.absoluteString.components(separatedBy: "?")[0]
        expectOneClearErrorLine(result, status: 1, mentioning: [shownURL] + fault.mentioning, fault.route)
    }
}
