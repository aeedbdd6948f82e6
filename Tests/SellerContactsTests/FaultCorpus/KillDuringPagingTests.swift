import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A process paging through a persisted list, killed with SIGKILL at random moments: the file
/// holds each page with its elements and cursors, or neither, and its stored pages stay
/// contiguous. 100 kills in CI (`CLK_FULL_FAULT_CORPUS=1`), 1,000 with `CLK_SLOW_TESTS=1`.
@Suite(.timeLimit(.minutes(10)))
struct KillDuringPagingTests {
    static let rounds =
        ProcessInfo.processInfo.environment["CLK_SLOW_TESTS"] == "1" ? 1_000 : FaultCorpus.isFull ? 100 : 5

    @Test func aKilledPageWriteLeavesThePageWithItsElementsOrNeither() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("pages.sqlite").path
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var pagesSeen = Set<Int>()
        for round in 0..<Self.rounds {
            // NB: the paging writes a page about every millisecond.
            _ = try await killedAtRandomMoment(
                arguments: [path, "0", "0", "pages"], ready: "paging", within: .milliseconds(50), using: &random,
                round: round)
            let pages = try Self.checkedPages(in: path, "round \(round), seed \(seed)")
            pagesSeen.insert(pages)
        }
        // NB: with the few rounds of a plain run (5, under TSan too, where the child is slow), the
        // kills may all land at one stage; the full corpus's 100 must not.
        if Self.rounds >= 100 {
            #expect(pagesSeen.count > 1, "the kills landed at different moments (seed \(seed)): \(pagesSeen)")
        }
    }

    /// Checks the file at `path` after a kill and returns how many pages it holds: intact, each
    /// page's ids matched by its membership rows and element rows, no membership row without
    /// its page, and the pages contiguous (0, 1, 2…, each asked for by the one before it).
    static func checkedPages(in path: String, _ context: String) throws -> Int {
        let database = try SQLiteDatabase(.file(path: path))
        let integrity = try database.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.text(at: 0) == "ok", "\(context)")
        let pages = try database.prepare(
            """
            SELECT p.position, p.request, p.next_cursor, p.ids,
                    (SELECT count(*) FROM content_loading_list_members m
                        JOIN content_loading_elements e ON e.type = m.element_type AND e.id = m.element_id
                        WHERE m.list_key = p.list_key || char(31) || p.position)
                FROM content_loading_list_pages p ORDER BY p.position
            """)
        var previousNext: String?
        var count = 0
        while try pages.step() {
            let ids = try JSONDecoder().decode([String].self, from: pages.data(at: 3) ?? Data())
            #expect(pages.int(at: 0) == count, "\(context): positions 0, 1, 2…")
            #expect(pages.text(at: 1) == previousNext, "\(context): page \(count) is the one its neighbour asked for")
            #expect(pages.int(at: 4) == ids.count, "\(context): page \(count) with all of its \(ids.count) elements")
            previousNext = pages.text(at: 2)
            count += 1
        }
        let orphans = try database.prepare(
            """
            SELECT count(*) FROM content_loading_list_members m WHERE NOT EXISTS (
                SELECT 1 FROM content_loading_list_pages p WHERE m.list_key = p.list_key || char(31) || p.position)
            """)
        #expect(try orphans.step() && orphans.int(at: 0) == 0, "\(context): no membership row without its page")
        return count
    }
}
