import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A remote with ETags: "not modified" while the tag a fetch sends is current.
final class TaggedRemote: Sendable {
    private let state = Locked<(value: String, tag: Int, sent: [Validators], failures: Int)>(("v1", 1, [], 0))

    /// The validators each fetch sent, oldest first.
    var sent: [Validators] { state.withLock { $0.sent } }
    /// Changes the resource (a new ETag).
    func change(to value: String) { state.withLock { ($0.value, $0.tag) = (value, $0.tag + 1) } }
    /// Makes the next `count` fetches fail as a busy server does.
    func failNext(_ count: Int) { state.withLock { $0.failures = count } }

    struct Busy: RetryableError {
        var isTransient: Bool { true }
    }

    @Sendable func fetch(_ key: String, _ validators: Validators) async throws -> FetchResult<String> {
        try state.withLock { state in
            state.sent.append(validators)
            if state.failures > 0 {
                state.failures -= 1
                throw Busy()
            }
            let current = Validators(entityTag: "\"\(state.tag)\"")
            return validators.entityTag == current.entityTag ? .notModified(current) : .modified(state.value, current)
        }
    }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryRevalidationTests {
    let remote = TaggedRemote()
    let clock = TestWallClock()

    func repository(disk: DiskCache? = nil, retry: RetryPolicy = .never) -> KeyedRepository<String, String> {
        KeyedRepository(disk: disk, now: { [clock] in clock.now }, retry: retry, fetchIfChanged: remote.fetch)
    }

    @Test func aRevalidationSendsTheStoredValidatorsAndANotModifiedWritesNothingButResetsTheAge() async throws {
        let repository = repository()
        #expect(try await repository.refresh("a") == .updated)
        clock.advance(by: 30)
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.age == .seconds(30))
        #expect(try await repository.refresh("a") == .notModified)
        #expect(remote.sent == [.none, Validators(entityTag: "\"1\"")])
        #expect(
            try await repository.value(for: "a", policy: .returnCacheDontLoad)?.age == .zero, "the age starts again")

        // A read that says it is refreshing gets the value once more, marked unchanged.
        clock.advance(by: 5)
        let reader = record(repository.events(for: "a", policy: .returnCacheThenLoad))
        let events = try await reader.values(count: 2).compactMap(\.cachedValue)
        #expect(events.map(\.value) == ["v1", "v1"])
        #expect(events[0].age == .seconds(5) && events[0].isRefreshing && !events[0].isUnchanged)
        #expect(events[1].age == .zero && events[1].isUnchanged && !events[1].isRefreshing)
        #expect(remote.sent.count == 3)
        await repository.fetchSettled("a")

        remote.change(to: "v2")
        #expect(try await repository.refresh("a") == .updated)
        #expect(try await reader.values(count: 3).last?.cachedValue?.value == "v2")
    }

    @Test func validatorsSurviveARestartOnDisk() async throws {
        let path = try temporaryCachePath()
        #expect(try await repository(disk: try DiskCache(.file(path: path))).refresh("a") == .updated)
        let restarted = repository(disk: try DiskCache(.file(path: path)))
        #expect(try await restarted.refresh("a") == .notModified)
        #expect(remote.sent.last == Validators(entityTag: "\"1\""))
        #expect(try await restarted.value(for: "a", policy: .returnCacheDontLoad)?.value == "v1")
    }

    @Test func aReadThatIgnoresTheCacheGetsTheConfirmedValue() async throws {
        let repository = repository()
        try await repository.refresh("a")
        let reader = record(repository.events(for: "a", policy: .reloadIgnoringCache))
        let confirmed = try #require(try await reader.values(count: 1).first?.cachedValue)
        #expect(confirmed.value == "v1" && confirmed.isUnchanged && confirmed.origin == .remote)
    }

    @Test func aNotModifiedForAKeyWithNoValueIsAnErrorAndTheNextFetchIsFull() async throws {
        let sent = Locked<[Validators]>([])
        let repository = KeyedRepository<String, String>(fetchIfChanged: { _, validators in
            sent.withLock { $0.append(validators) }
            return .notModified(Validators(entityTag: "\"stale\""))
        })
        // NB: a reader that fetches nothing itself, so the test's refreshes are the only fetches.
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await reader.values(count: 1).first?.summary == "noValue")
        let error = await #expect(throws: UnexpectedNotModified.self) { try await repository.refresh("a") }
        #expect(error?.key == "a", "the key's stable text form")
        #expect("\(error!)".contains("304 Not Modified for a, but no value is cached"))
        guard case .error(let delivered) = try await reader.values(count: 2).last else {
            Issue.record("the reader did not get the error")
            return
        }
        #expect(delivered is UnexpectedNotModified)
        _ = try? await repository.refresh("a")
        #expect(sent.withLock { $0 } == [.none, .none], "nothing cached, so the next fetch sends no validators")
    }

    /// A slow answer, or a clock that moved on: the 304 still answers the validators sent.
    @Test func aNotModifiedForAValueThatExpiredWhileItWasAskedForConfirmsIt() async throws {
        let tag = Validators(entityTag: "\"1\"")
        let secondsPassingInTheRequest = Locked<TimeInterval>(0)
        let sent = Locked<[Validators]>([])
        let disk = try DiskCache(.file(path: try temporaryCachePath()))
        let repository = KeyedRepository<String, String>(
            disk: disk, ages: CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(120)),
            now: { [clock] in clock.now }
        ) { [clock] _, validators in
            sent.withLock { $0.append(validators) }
            clock.advance(by: secondsPassingInTheRequest.withLock { $0 })
            return validators == tag ? .notModified(tag) : .modified("v1", tag)
        }
        try await repository.refresh("a")
        clock.advance(by: 90)
        secondsPassingInTheRequest.withLock { $0 = 60 }  // it expires at 120 s, on the way
        let reader = record(repository.events(for: "a", policy: .returnCacheElseLoad))

        let events = try await reader.values(count: 2)

        #expect(events.map(\.summary) == ["memory:v1", "remote:v1"], "no error, no removal")
        #expect(events.last?.cachedValue?.isUnchanged == true && events.last?.cachedValue?.isRefreshing == false)
        #expect(events.last?.cachedValue?.age == .zero, "confirmed: its age starts again")
        #expect(sent.withLock { $0 } == [.none, tag])
        let reopened = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: disk.path)), now: { [clock] in clock.now }
        ) {
            _ in "fetched"
        }
        #expect(try await reopened.value(for: "a", policy: .returnCacheDontLoad)?.age == .zero, "confirmed in the file")
    }

    @Test func aSaveStoresNoValidatorsSoTheNextFetchIsFull() async throws {
        let repository = repository()
        try await repository.refresh("a")
        try await repository.save("edited", for: "a")
        #expect(try await repository.refresh("a") == .updated)
        #expect(remote.sent.last == Validators.none)
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "v1")
    }

    @Test func aFetchIsRetriedAsThePolicySaysAndReadersSeeOneValue() async throws {
        let retryClock = ManualClock()
        let repository = repository(
            retry: RetryPolicy(attempts: 3, initialDelay: .seconds(1), jitter: .none, clock: retryClock))
        remote.failNext(2)
        let reader = record(repository.events(for: "a"))
        for _ in 1...2 {
            try await retryClock.waitForSleepers(1)
            retryClock.advance(by: .seconds(60))
        }
        #expect(try await reader.values(count: 1).map(\.summary) == ["remote:v1"])
        await repository.fetchSettled("a")
        #expect(remote.sent.count == 3)
        #expect(reader.elements.count == 1, "no error event for the attempts that were retried")
    }
}
