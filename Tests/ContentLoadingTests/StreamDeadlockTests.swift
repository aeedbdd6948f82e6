import Foundation
import KitTestSupport
import Testing

/// Cancelling a task that iterates a stream while another thread sends to it never deadlocks:
/// the kit yields, resumes and finishes nothing while it holds a lock.
///
/// The stress runs in a child process (`stream-stress`) with a time limit, because a deadlock
/// takes threads of the cooperative pool with it: in this process it would hang the suite.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct StreamDeadlockTests {
    @Test func cancellingIteratorsWhileSendingNeverDeadlocks() async throws {
        let stress = ChildProcess.productsDirectory.appendingPathComponent("stream-stress")
        #expect(FileManager.default.isExecutableFile(atPath: stress.path), "the stress was built at \(stress.path)")
        // NB: before the fix every run deadlocked within ~1,400 rounds; 3,000 take ~0.5 s.
        let child = try ChildProcess(stress, arguments: ["3000"])
        let status = await child.exitStatus(within: .seconds(30))
        #expect(status == 0, "stream-stress did not finish within 30 s (a deadlock), or failed")
        #expect(child.remainingOutput() == "done 3000\n")
    }
}
