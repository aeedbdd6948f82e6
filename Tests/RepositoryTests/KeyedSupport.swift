import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import Testing

/// A key with a structure, stored under its JSON.
struct SearchKey: CacheKey, Codable {
    let query: String
    let page: Int
}

/// A remote that answers at once with "<key> v<n>" (its n-th fetch of that key), or fails.
final class KeyedRemote: Sendable {
    private let state = Locked<(counts: [String: Int], failure: (any Error)?)>(([:], nil))

    var fetchCount: Int { state.withLock { $0.counts.values.reduce(0, +) } }
    func fetchCount(of key: String) -> Int { state.withLock { $0.counts[key] ?? 0 } }
    func fail(with error: (any Error)?) { state.withLock { $0.failure = error } }

    @Sendable func fetch(_ key: String) async throws -> String {
        let (count, failure) = state.withLock { state in
            state.counts[key, default: 0] += 1
            return (state.counts[key]!, state.failure)
        }
        if let failure { throw failure }
        return "\(key) v\(count)"
    }
}

extension CacheEvent {
    /// A short form for comparisons: "memory:a v1", "noValue", "error".
    var summary: String {
        switch self {
        case .value(let cached): "\(cached.origin):\(cached.value)"
        case .noValue: "noValue"
        case .error: "error"
        }
    }
}

/// Records a read's events so a test can await them.
@MainActor
func record<Value: Sendable>(_ stream: AsyncStream<CacheEvent<Value>>) -> StreamRecorder<CacheEvent<Value>> {
    StreamRecorder(stream)
}

/// The summaries of the first `count` events.
@MainActor
func summaries<Value: Sendable>(_ recorder: StreamRecorder<CacheEvent<Value>>, count: Int) async throws -> [String] {
    try await recorder.values(count: count).map(\.summary)
}

/// A fresh cache file path.
func temporaryCachePath() throws -> String {
    try temporaryDatabasePath().replacingOccurrences(of: "notes.sqlite", with: "cache.sqlite")
}

/// The first column of every row `sql` selects in the SQLite file at `path`, as text.
func sqlRows(_ sql: String, in path: String) throws -> [String] {
    let statement = try SQLiteDatabase(.file(path: path)).prepare(sql)
    var rows: [String] = []
    while try statement.step() { rows.append(statement.text(at: 0) ?? "NULL") }
    return rows
}
