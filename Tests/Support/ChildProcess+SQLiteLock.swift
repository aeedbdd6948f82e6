import Foundation

extension ChildProcess {
    /// A python3 process holding the write lock of the SQLite database at `path` (a
    /// `BEGIN IMMEDIATE` transaction, after running `statement` in it when given), returned
    /// once the lock is held. It holds it until stopped.
    ///
    /// - Throws: ``ChildProcessError`` when python3 cannot run or exits before holding the lock.
    public static func holdingSQLiteWriteLock(on path: String, running statement: String? = nil) throws
        -> ChildProcess
    {
        let script = """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            if len(sys.argv) > 2: connection.execute(sys.argv[2])
            print("locked", flush=True)
            sys.stdin.read()
            """
        let arguments = ["python3", "-c", script, path] + (statement.map { [$0] } ?? [])
        let holder = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments)
        let line = try holder.readLine()
        guard line == "locked" else {
            throw ChildProcessError(reason: "the lock holder wrote '\(line)' instead of 'locked'")
        }
        return holder
    }
}
