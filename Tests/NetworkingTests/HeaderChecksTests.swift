import ContentLoading
import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// A header that HTTP cannot carry fails the request before anything is sent, naming the
/// header and never its value. `URLSession` dropped such a header without a word: a bearer
/// token read from a file with its trailing newline went nowhere, and the server's `401` was
/// all the app saw. Against the fixture server, a real process.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct HeaderChecksTests {
    let server: LocalHTTPServer

    init() throws { server = try LocalHTTPServer.start() }

    /// The error a request for `/echo` with `headers` fails with, and how many requests the
    /// server got meanwhile.
    func failure(_ headers: [String: String], validators: Validators = .none) async throws -> (APIError?, Int) {
        let before = try await server.requestCount()
        var failure: APIError?
        do {
            _ = try await Transport.standard().send(
                TransportRequest(method: .get, url: server.url("echo"), headers: headers, validators: validators))
        } catch let error as APIError {
            failure = error
        }
        // NB: the first question is one of the requests the second counts.
        return (failure, try await server.requestCount() - before - 1)
    }

    @Test func aValueWithALineBreakIsAnErrorNamingTheHeaderNotItsValue() async throws {
        for value in ["Bearer t0\n", "Bearer t0\r\nX-Injected: yes", "a\u{0}b"] {
            let (error, sent) = try await failure(["Authorization": value, "X-Trace": "fine"])
            #expect(error == .invalidHeader(name: "Authorization", url: server.url("echo")))
            #expect(sent == 0, "nothing was sent")
            let message = error?.description ?? ""
            #expect(message.contains("the value of the header Authorization holds a line break or NUL"))
            #expect(!message.contains("t0"), "the value is never shown: \(message)")
        }
    }

    @Test func aNameThatIsNoTokenIsAnError() async throws {
        for name in ["X Trace", "X-Bad\r\nX-Injected", "X:Trace", ""] {
            let (error, sent) = try await failure([name: "v"])
            #expect(error == .invalidHeader(name: name, url: server.url("echo")))
            #expect(sent == 0)
            let message = error?.description ?? ""
            #expect(!message.contains("\n"), "one line")
        }
        #expect(
            APIError.invalidHeader(name: "X Trace", url: server.url("echo")).description.contains(
                #""X Trace" is not a header name HTTP allows"#))
    }

    @Test func aValidatorWithALineBreakIsAnErrorNamingItsHeader() async throws {
        let (error, sent) = try await failure([:], validators: Validators(entityTag: "\"v1\"\n"))
        #expect(error == .invalidHeader(name: "If-None-Match", url: server.url("echo")))
        #expect(sent == 0)
    }

    @Test func everyOtherHeaderGoesAsGiven() async throws {
        struct Echo: Decodable { let headers: [String: String] }
        let headers = ["X-Trace": "a\tb \"quoted\" ~!#", "X-Custom_Name.1": "ok", "Accept-Language": "fr-CH, fr;q=0.9"]
        let response = try await Transport.standard().send(TransportRequest(url: server.url("echo"), headers: headers))
        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        for (name, value) in headers { #expect(echo.headers[name.lowercased()] == value) }
        let (error, sent) = try await failure(headers)
        #expect(error == nil)
        #expect(sent == 1, "the count sees a request that was sent")
        #expect(APIError.invalidHeader(name: "X", url: server.url("echo")).isTransient == false)
    }
}
