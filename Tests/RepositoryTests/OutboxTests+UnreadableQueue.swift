import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// A queue that cannot be read from the file is told, naming the file, and sent once it can be;
/// a cancel that cannot read it throws, and leaves the mutation to be sent.
extension OutboxTests {
    @Test func anOutboxThatCannotBeReadSaysSoNamingTheFileAndSendsOnceAFetchSucceeds() async throws {
        let (_, lists, outbox) = try launch(isPaused: true)
        try await lists.refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        var events = outbox.outcomes.makeAsyncIterator()
        // NB: the outbox's table renamed away: reading it fails, as reading a damaged file does.
        _ = try sqlRows("ALTER TABLE content_loading_outbox RENAME TO moved_away", in: path)

        await outbox.resume()
        guard case .unreadable(let error)? = await events.next() else {
            Issue.record("the queue could not be read: it says so")
            return
        }
        #expect(error.path == path)
        #expect("\(error)".contains("no such table: content_loading_outbox"), "\(error)")
        #expect(await server.phone(of: 1) == "one", "nothing sent")

        _ = try sqlRows("ALTER TABLE moved_away RENAME TO content_loading_outbox", in: path)
        try await lists.refresh("all")
        // NB: a run asked for while the first one read (the perform's) may have said so again.
        var next = await events.next()
        while case .unreadable? = next { next = await events.next() }
        guard case .confirmed? = next else {
            Issue.record("the fetch that succeeded ran the queue again, and the mutation went")
            return
        }
        #expect(await server.phone(of: 1) == "one+a")
    }

    @Test func aCancelThatCannotReadTheOutboxThrowsNamingTheFileAndTheMutationIsStillSent() async throws {
        let (_, lists, outbox) = try launch(isPaused: true)
        try await lists.refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let pending = try #require(try await outbox.pendingMutations().first)
        var events = outbox.outcomes.makeAsyncIterator()
        _ = try sqlRows("ALTER TABLE content_loading_outbox RENAME TO moved_away", in: path)

        do {
            try await outbox.cancel(pending)
            Issue.record("the cancel could not read the outbox: it throws")
        } catch let error as CacheError {
            #expect(error.path == path)
            #expect(error.key.hasSuffix(" 1"), "names the element: \(error)")
        }
        _ = try sqlRows("ALTER TABLE moved_away RENAME TO content_loading_outbox", in: path)
        await outbox.resume()
        guard case .confirmed? = await events.next() else {
            Issue.record("not cancelled, so sent")
            return
        }
        #expect(await server.phone(of: 1) == "one+a")
    }
}
