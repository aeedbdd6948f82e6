import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// An element's kept server value that no longer decodes (a damaged file, or an element type
/// whose shape changed since it was stored): the mutation waits, with an error naming the file
/// and the element, until a fetch brings the server's value again.
extension OutboxTests {
    @Test func aServerValueThatDoesNotDecodeIsNamedAndTheMutationIsSentOnceAFetchBringsIt() async throws {
        var (_, lists, outbox) = try launch(isPaused: true)
        try await lists.refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        _ = try sqlRows("UPDATE content_loading_element_bases SET value = X'7B7D'", in: path)

        (_, lists, outbox) = try launch(isPaused: true)
        var events = outbox.outcomes.makeAsyncIterator()
        await outbox.resume()
        guard case .willRetry(_, let error)? = await events.next(), let error = error as? CacheError else {
            Issue.record("the mutation waits, with a cache error")
            return
        }
        #expect(error.path == path)
        #expect(error.key.hasSuffix(" 1"), "names the element: \(error)")
        #expect("\(error)".contains("Key 'id' not found"), "\(error)")
        #expect(await server.phone(of: 1) == "one", "nothing sent")
        #expect(try await phones(lists) == ["one+a", "two"], "still shown")

        try await lists.refresh("all")
        var next = await events.next()
        while case .willRetry? = next { next = await events.next() }
        guard case .confirmed? = next else {
            Issue.record("the fetch brought the server's value, and the mutation went over it")
            return
        }
        #expect(await server.phone(of: 1) == "one+a")
    }
}
