import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// When a conflict's event comes: an app that reads the store when it hears that the server won
/// finds the server's value there, as it does on `.rejected` and `.confirmed`.
extension OutboxConflictTests {
    /// What the file holds for contact 1: its row (what readers see), and how many of its mutations are pending.
    func stored() throws -> [String] {
        try sqlRows(
            """
            SELECT CAST(value AS TEXT) FROM content_loading_elements WHERE id = '1'
            UNION ALL SELECT count(*) || ' pending' FROM content_loading_outbox
            """, in: path)
    }

    @Test func theServerWinningIsToldOnceTheRollbackIsStoredAndNotWhileItCannotBe() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        // NB: a trigger in the file makes the rollback's write fail (the mutation cannot leave
        // the outbox), as a full disk would.
        _ = try sqlRows(
            """
            CREATE TRIGGER refuse_settlements BEFORE DELETE ON content_loading_outbox
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """, in: path)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))

        // The mutation stays pending, and the conflict is not told as ended.
        guard case .willRetry(_, let error)? = await events.next() else {
            Issue.record("the rollback could not be stored: it will be tried again, no conflict told")
            return
        }
        #expect("\(error)".contains("refused by the test"))
        #expect(try stored() == [#"{"id":1,"phone":"one+a"}"#, "1 pending"])
        #expect(try await shown() == "one+a", "still shown as performed")

        _ = try sqlRows("DROP TRIGGER refuse_settlements", in: path)
        let run = Task { await outbox.send() }
        // NB: a run asked for meanwhile (the launch's) may have met the trigger too.
        guard case .conflict(_, let conflict, let resolution)? = await events.nextAfterRetries() else {
            Issue.record("the conflict is told once the rollback is stored")
            return
        }
        #expect(resolution == .serverWins)
        #expect(conflict.server?.phone == "ONE")
        #expect(try stored() == [#"{"id":1,"phone":"ONE"}"#, "0 pending"], "stored before the event")
        #expect(try await shown() == "ONE")
        await run.value
    }
}
