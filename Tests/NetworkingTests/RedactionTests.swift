import ContentLoadingNetworking
import Foundation
import Testing

/// Messages that name a URL never show its user-info or a secret-looking query value.
@Suite struct RedactionTests {
    @Test(arguments: [
        ("http://alice:s3cr3t@host/contacts", "http://host/contacts"),
        ("https://host/c?api_key=abc&page=2", "https://host/c?api_key=***&page=2"),
        ("https://host/c?Token=abc&AUTH=x&sig=1&q=ok", "https://host/c?Token=***&AUTH=***&sig=***&q=ok"),
        ("https://host/c?password=p&secret=s&signature=z", "https://host/c?password=***&secret=***&signature=***"),
        ("https://host/c?flag", "https://host/c?flag"),
        (
            "https://host/c?pwd=1&pass=2&jwt=3&bearer=4&PassCode=5",
            "https://host/c?pwd=***&pass=***&jwt=***&bearer=***&PassCode=***"
        ),
        ("https://host/cb#access_token=abc&state=x", "https://host/cb#***"),
        ("//alice:s3cr3t@127.0.0.1/x", "//127.0.0.1/x"),
        ("file:///tmp/contacts.json", "file:///tmp/contacts.json"),
    ])
    func redactsUserInfoAndSecretQueryValues(url: String, shown: String) throws {
        #expect(try #require(URL(string: url)).redactedForDisplay == shown)
    }

    @Test func everyAPIErrorMessageShowsTheRedactedURL() throws {
        let url = try #require(URL(string: "http://alice:s3cr3t@127.0.0.1:9/c?api_key=k3y"))
        let errors: [APIError] = [
            .httpStatus(url: url, status: 500, body: nil), .emptyBody(url: url),
            .timedOut(url: url, after: .seconds(1)),
            .deadlineExceeded(url: url, after: .seconds(1)), .bodyTooLarge(url: url, limit: 1),
            .redirectRefused(from: url, to: url), .transport(url: url, reason: "refused"),
            .unsupportedScheme(url: url), .malformedJSON(url: url, reason: "bad"),
            .decoding(url: url, path: "$", expected: "x", reason: "y"),
        ]
        for error in errors {
            #expect(!error.description.contains("s3cr3t"), "\(error)")
            #expect(!error.description.contains("alice"), "\(error)")
            #expect(!error.description.contains("k3y"), "\(error)")
            #expect(error.description.contains("127.0.0.1:9/c?api_key=***"), "\(error)")
        }
    }
}
