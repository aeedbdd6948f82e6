import ContentLoading
import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Credentials go to the origin they were given for: a redirect to another origin (another
/// scheme, host or port) is followed without the secret headers, as a browser's fetch and curl
/// follow it; one within the origin keeps them. Against two fixture servers, real processes on
/// 127.0.0.1 on two ports: two origins.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RedirectCredentialsTests {
    /// What the fixture server's `/echo` answers: the headers it got, names lowercased.
    struct Echo: Decodable { let headers: [String: String] }

    let first: LocalHTTPServer
    let second: LocalHTTPServer

    init() throws {
        first = try LocalHTTPServer.start()
        second = try LocalHTTPServer.start()
    }

    /// `first`'s redirect to `target`.
    func redirect(to target: URL) -> URL {
        first.url("redirect?to=\(target.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
    }

    /// A request for `url` with credentials in every kind of secret header, and one header
    /// that is not secret.
    func request(_ url: URL) -> TransportRequest {
        var request = TransportRequest(
            url: url,
            headers: [
                "Authorization": "Bearer t0", "Cookie": "session=s0", "X-API-Key": "k0", "X-Tenant-Token": "tt0",
                "X-Trace": "trace-1",
            ])
        request.secretHeaders = ["x-tenant-token"]
        return request
    }

    func echo(_ request: TransportRequest) async throws -> Echo {
        let response = try await Transport.standard().send(request)
        return try JSONDecoder().decode(Echo.self, from: response.body)
    }

    @Test func aRedirectToAnotherOriginIsFollowedWithoutTheSecretHeaders() async throws {
        let echo = try await echo(request(redirect(to: second.url("echo"))))
        for name in ["authorization", "cookie", "x-api-key", "x-tenant-token"] {
            #expect(echo.headers[name] == nil, "\(name) went to another origin")
        }
        #expect(echo.headers["x-trace"] == "trace-1", "a header that is not secret goes on")
    }

    /// A session configuration's additional headers are sent as each request's own, so its
    /// credentials stay with their origin too (`URLSession` adds them to every request, the
    /// other origin's as well); a request's own header of the same name wins.
    @Test func aConfigurationsCredentialsStayWithTheirOrigin() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer c0", "X-Trace": "config", "X-Team": "t1"]
        let transport = Transport.standard(configuration: configuration)
        let request = TransportRequest(url: redirect(to: second.url("echo")), headers: ["x-trace": "request"])
        let elsewhere = try JSONDecoder().decode(Echo.self, from: try await transport.send(request).body)
        #expect(elsewhere.headers["authorization"] == nil, "the configuration's credentials went to another origin")
        #expect(elsewhere.headers["x-team"] == "t1", "a header that is not secret goes on")
        #expect(elsewhere.headers["x-trace"] == "request", "the request's own header wins")
        let here = try JSONDecoder().decode(
            Echo.self, from: try await transport.send(TransportRequest(url: redirect(to: first.url("echo")))).body)
        #expect(here.headers["authorization"] == "Bearer c0")
        #expect(configuration.httpAdditionalHeaders?.count == 3, "the caller's configuration is not changed")
    }

    @Test func aRedirectWithinTheOriginKeepsThem() async throws {
        let echo = try await echo(request(redirect(to: first.url("echo"))))
        #expect(echo.headers["authorization"] == "Bearer t0")
        #expect(echo.headers["cookie"] == "session=s0")
        #expect(echo.headers["x-api-key"] == "k0")
        #expect(echo.headers["x-tenant-token"] == "tt0")
    }

    /// An adapter's credentials, and the headers it names secret, stay with the origin too.
    @Test func anAdaptersCredentialsStayWithTheirOrigin() async throws {
        struct Adapter: RequestAdapter {
            var secretHeaderNames: Set<String> { ["X-Tenant-Token"] }
            func adapt(_ request: TransportRequest) async throws -> TransportRequest {
                var request = request
                request.headers["Authorization"] = "Bearer t0"
                request.headers["X-Tenant-Token"] = "tt0"
                return request
            }
        }
        let client = APIClient(transport: .standard(), adapter: Adapter())
        let elsewhere: Echo = try await client.fetch(Echo.self, from: redirect(to: second.url("echo")))
        #expect(elsewhere.headers["authorization"] == nil)
        #expect(elsewhere.headers["x-tenant-token"] == nil)
        let here: Echo = try await client.fetch(Echo.self, from: redirect(to: first.url("echo")))
        #expect(here.headers["authorization"] == "Bearer t0")
        #expect(here.headers["x-tenant-token"] == "tt0")
    }

    @Test func anOriginIsTheSchemeTheHostAndThePort() throws {
        func same(_ first: String, _ second: String) -> Bool {
            URL(string: first)!.hasSameOrigin(as: URL(string: second)!)
        }
        #expect(same("https://api.example.com/a", "https://API.example.com:443/b?c=d"))
        #expect(same("http://example.com/a", "HTTP://example.com:80/"))
        #expect(!same("https://example.com/a", "http://example.com/a"), "a downgrade to http")
        #expect(!same("https://example.com/a", "https://example.com:8443/a"))
        #expect(!same("https://example.com/a", "https://cdn.example.com/a"))
    }
}
