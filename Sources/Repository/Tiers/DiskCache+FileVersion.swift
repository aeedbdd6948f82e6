import Foundation

/// The file's write counter read without a hop onto the actor, for an invalidation: it marks
/// stale every value written so far, in this process or another.
extension DiskCache {
    /// The highest write version in the file now, whichever connection wrote it: the counter,
    /// read through a second connection of the cache's own (opened the first time it is
    /// needed), so a caller that cannot wait for the actor (an invalidation) has it at once.
    /// At least ``latestVersion``; that alone for a cache in memory, a closed one, or when the
    /// counter cannot be read (another process's writes are then known as far as they were
    /// read).
    nonisolated var fileVersion: UInt64 {
        let seen = latestVersion
        guard path != ":memory:" else { return seen }
        let counter: Int? = counterReader.withLock { reader in
            guard !reader.isClosed else { return nil }
            // NB: never made anew: a file deleted under the cache is not created empty here.
            if reader.database == nil, FileManager.default.fileExists(atPath: path) {
                reader.database = try? SQLiteDatabase(.file(path: path))
                // NB: an invalidation does not wait for another connection's lock (a file not
                // yet in WAL): busy, it marks stale what this connection has seen.
                reader.database?.failWhenBusy()
            }
            guard let database = reader.database else { return nil }
            return (try? Self.counter(in: database, operation: "read the cache in")) ?? nil
        }
        return max(seen, counter.map { UInt64($0) } ?? 0)
    }

    /// The second connection ``fileVersion`` reads through, and whether the cache was closed.
    struct CounterReader {
        var database: SQLiteDatabase?
        var isClosed = false
    }

    /// Closes the connection ``fileVersion`` reads through; it is not opened again.
    nonisolated func closeCounterReader() {
        counterReader.withLock { reader in
            reader.database?.close()
            reader.database = nil
            reader.isClosed = true
        }
    }
}
