import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// A load cancelled at any moment ends with its cancellation, and the process goes on. On
/// Linux, FoundationNetworking trapped when a task's cancellation met its completion ("Trying
/// to access a behaviour for a task that in not in the registry") or came while the session
/// waited for the answer to its redirect callback ("Received callback for HTTP redirection,
/// but we're not waiting for it"); the transport no longer cancels the session's tasks there
/// (see `HTTPExchange.cancel(_:)`).
///
/// The loads run in a child process (`cancel-stress`), because the trap ends the process it
/// happens in: in this one it would end the suite. The child keeps a thread busy, as a loaded
/// machine does. (Not under the sanitizers in `.ci/run`: the work is the child's.)
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct CancelledLoadsTests {
    let server: LocalHTTPServer
    let stress = ChildProcess.productsDirectory.appendingPathComponent("cancel-stress")

    init() throws { server = try LocalHTTPServer.start() }

    /// Runs `loads` cancelled loads of `url` in the child and expects it to end them all.
    func expectNoTrap(loading url: URL, _ loads: Int) async throws {
        #expect(FileManager.default.isExecutableFile(atPath: stress.path), "the stress was built at \(stress.path)")
        let child = try ChildProcess(stress, arguments: [url.absoluteString, "\(loads)"])
        let status = await child.exitStatus(within: .seconds(50))
        #expect(status == 0, "cancel-stress crashed or did not finish: \(child.remainingErrors())")
        #expect(child.remainingOutput() == "done \(loads)\n")
    }

    /// NB: before the fix every run trapped (4 of 4 with the fix reverted); they take about 2 s here.
    @Test func cancellingLoadsWhileTheyAreRedirectedNeverTraps() async throws {
        let target = server.url("echo").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try await expectNoTrap(loading: server.url("redirect?to=\(target)"), 2_000)
    }

    /// Loads that ended early leave room for the next ones. On Linux their tasks run on (see
    /// `HTTPExchange.cancel(_:)`) until the session's own timeout: here 21 s, a second past their
    /// idle timeout, while their deadline ends them after 300 ms. With the session's 6
    /// connections to a host, 8 of them held every connection and the next load waited behind
    /// them for about 20 s, past its idle timeout of 10 s (room for a busy machine: with 1 s it
    /// failed once in a CI run that shared 2 cores with the whole package's tests).
    @Test func loadsThatEndedEarlyLeaveRoomForTheNextOnes() async throws {
        let limits = TransportLimits(idleTimeout: .seconds(20), deadline: .milliseconds(300))
        let client = APIClient(transport: .standard(limits: limits))
        let next = APIClient(transport: .standard(limits: TransportLimits(idleTimeout: .seconds(10))))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    // NB: headers, then nothing for a minute: each load passes its deadline and
                    // is left to run.
                    let error = try await apiError { try await client.data(from: server.url("silence")) }
                    #expect(error.description.hasSuffix("took longer than the deadline of 300ms"), "\(error)")
                }
            }
            try await group.waitForAll()
        }
        let body = try await next.data(from: server.url("echo"))
        #expect(!body.isEmpty, "the next load got a connection")
    }

    /// NB: it needs a busy machine, which the child makes itself: with the fix reverted, 4 of 4
    /// runs trapped.
    @Test func cancellingLoadsAsTheyCompleteNeverTraps() async throws {
        try await expectNoTrap(loading: server.url("echo"), 6_000)
    }
}
