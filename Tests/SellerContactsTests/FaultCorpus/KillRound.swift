import Foundation
import KitTestSupport
import Testing

/// One round of a kill test: starts `sqlite-crash-writer` with `arguments`, expects its first
/// line to be `ready`, lets it work for a random time under `longest`, and kills it with
/// SIGKILL. Returns the killed process, whose later output can still be read.
///
/// The wait is fault injection, not synchronisation: the kill lands at a random moment of the
/// child's work.
func killedAtRandomMoment(
    arguments: [String], ready: String, within longest: Duration, using random: inout SeededGenerator, round: Int
) async throws -> ChildProcess {
    let writer = ChildProcess.productsDirectory.appendingPathComponent("sqlite-crash-writer")
    let child = try ChildProcess(writer, arguments: arguments)
    #expect(try child.readLine() == ready, "round \(round): \(child.remainingErrors())")
    let microseconds = UInt64(longest / .microseconds(1))
    try await Task.sleep(for: .microseconds(Int(random.next() % microseconds)))
    #expect(child.isRunning, "round \(round): \(child.remainingErrors())")
    child.kill()
    return child
}
