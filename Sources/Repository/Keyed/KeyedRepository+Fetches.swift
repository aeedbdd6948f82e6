import ContentLoading
import Foundation

/// Fetches of a key: one in flight per key, whose result goes through the tiers to every
/// reader (see `KeyedRepository+Writes.swift` for how a write reaches them).
extension KeyedRepository {
    /// Fetches `key`, or joins its fetch in flight, and writes the result through the tiers
    /// to every reader (see ``flight(_:in:unlessWrittenAfter:skippingFresh:)``).
    ///
    /// - Returns: What the fetch did.
    /// - Throws: Its error, or `CancellationError` when the caller's task is cancelled.
    @discardableResult
    func sync(
        _ key: Key, in channel: KeyChannel<Value>, unlessWrittenAfter seen: UInt64? = nil, skippingFresh: Bool = false
    ) async throws -> SyncOutcome {
        try await flight(key, in: channel, unlessWrittenAfter: seen, skippingFresh: skippingFresh).result.get()
    }

    /// Fetches `key`, or joins its fetch in flight, and writes the result through the tiers
    /// to every reader. With `seen`, does nothing when a write of `key` came after that version
    /// (a reader's miss that another fetch has filled since); with `skippingFresh`, does
    /// nothing while the cached value is fresh. The fetch sends the validators stored with the
    /// value, and is tried again as the retry policy says. It runs while someone waits for it;
    /// when the last caller has gone, it is cancelled.
    ///
    /// - Returns: How the fetch ended: ``SyncOutcome/updated`` when the value was written;
    ///   ``SyncOutcome/notModified`` when the fetch found it unchanged (a 304, or an equal
    ///   value: its age starts again) or a save since the fetch started kept its own value;
    ///   ``SyncOutcome/skipped`` when nothing was fetched; or its error.
    /// - Throws: `CancellationError` when the caller's task is cancelled.
    ///
    /// A caller that comes for a new value (not `skippingFresh`) is not answered by a fetch
    /// whose request started before a save, removal or invalidation of `key` made before it
    /// came: it waits for that fetch, then `key` is fetched again (with `seen`, unless a write
    /// came after it: a reader's miss after a removal, which that fetch did not fill).
    func flight(
        _ key: Key, in channel: KeyChannel<Value>, unlessWrittenAfter seen: UInt64? = nil, skippingFresh: Bool = false
    ) async throws -> KeyChannel<Value>.FlightEnd {
        let asked = channel.mark
        let end = try await anyFlight(key, in: channel, unlessWrittenAfter: seen, skippingFresh: skippingFresh)
        // NB: such a fetch brings what the server held before (a change the app made there, then
        // invalidated the key for), or nothing at all (a save or removal since it started wins
        // over it). One more is enough: it started after.
        guard !skippingFresh, let started = end.started, started.precedes(asked) else { return end }
        return try await anyFlight(key, in: channel, unlessWrittenAfter: seen)
    }

    /// ``flight(_:in:unlessWrittenAfter:skippingFresh:)``, joining a fetch in flight whenever
    /// its request started.
    private func anyFlight(
        _ key: Key, in channel: KeyChannel<Value>, unlessWrittenAfter seen: UInt64? = nil, skippingFresh: Bool = false
    ) async throws -> KeyChannel<Value>.FlightEnd {
        while true {
            let end = try await startOrJoinFlight(
                key, in: channel, unlessWrittenAfter: seen, skippingFresh: skippingFresh)
            // NB: a fetch joined that another caller started and skipped by its own condition (a
            // write since the miss it saw) is no answer to a caller whose condition does not skip
            // it (a miss seen after that write, a refresh): it asks again.
            guard case .success(.skipped) = end.result, end.started == nil, !skippingFresh else { return end }
            if let seen, channel.wasWritten(after: seen) { return end }
        }
    }

    /// ``anyFlight(_:in:unlessWrittenAfter:skippingFresh:)``, once: the fetch in flight (whoever
    /// started it, with whatever condition), or one this caller starts.
    private func startOrJoinFlight(
        _ key: Key, in channel: KeyChannel<Value>, unlessWrittenAfter seen: UInt64?, skippingFresh: Bool
    ) async throws -> KeyChannel<Value>.FlightEnd {
        // NB: a caller whose condition a value in hand meets (a miss, a fresh value) joins a fetch
        // that has it; any other comes for a fetch made after it asked: a refresh made on seeing a
        // fetched value starts a new fetch, it does not join the one that delivered it.
        try await channel.flight.run(needsNewResult: seen == nil && !skippingFresh) { [self] commit in
            let flight = channel.nextFlight()
            let started = channel.writtenVersion
            let seenInTier = tier?.latestVersion
            let mark = channel.mark
            _ = channel.takeMatchesInFlight()
            // NB: the fetch uses the channel until it ends, so a caller that comes while it
            // writes finds this channel (its write lock, its versions, this fetch), not a new one.
            guard checkOutExistingChannel(for: key, being: channel) != nil else {
                return .init(flight: flight, result: .failure(CancellationError()), started: mark)
            }
            defer { checkInChannel(for: key) }
            do {
                if let seen, started > seen { return .init(skipped: flight) }
                // NB: the hit a freshness check read already holds the validators; no second read.
                var held: Validators?
                if skippingFresh, let hit = await lookUp(key).hit {
                    guard
                        isStale(
                            key, value: hit.value, writtenAt: hit.writtenAt, version: hit.version,
                            validators: hit.validators, at: now())
                    else {
                        return .init(skipped: flight)
                    }
                    held = hit.validators
                }
                let validators: Validators
                if let held { validators = held } else { validators = await storedValidators(of: key) }
                // NB: the file's version, not only what this process has seen: what another
                // process wrote before the request is no write since the fetch started.
                let startedInTier: UInt64? =
                    if let tier, let seenInTier { await tier.startVersion(since: seenInTier) } else { nil }
                let result = try await retry.run { try await fetch(key, validators) }
                let end = try await sharingWrite {
                    let end: KeyChannel<Value>.FlightEnd = try await channel.writes.withLock { [self] in
                        // NB: a fetch nobody waits for any more writes nothing (a newer one may run);
                        // one that writes stays the fetch in flight until its value is stored.
                        try commit()
                        // NB: writes win: a save or removal since the fetch started keeps its value.
                        // An edit of some elements since (an element change) is no such write: the
                        // persistent tier keeps the elements written after `startedInTier`, and the
                        // fetched list (its members, its order) is stored with them.
                        guard !channel.wasWrittenWhole(after: started) else {
                            return KeyChannel<Value>.FlightEnd(
                                flight: flight, result: .success(.notModified), delivery: nil, started: mark)
                        }
                        let (outcome, delivery) = try await write(
                            result, for: key, in: channel, sent: validators, keepingWritesAfter: startedInTier)
                        // NB: what a request that started before an invalidation of the key brings is
                        // what the server held before it: the key stays stale, and its next read
                        // fetches again (as a live reader does at once). Also when the invalidation
                        // named what it holds (an element of a list), and nothing held said it did.
                        let matches = channel.takeMatchesInFlight()
                        if channel.mark.invalidations > mark.invalidations
                            || delivery.deliveredValue.map({ value in matches.contains { $0(value) } }) == true
                        {
                            invalidateEverythingWritten(of: key)
                        }
                        return KeyChannel<Value>.FlightEnd(
                            flight: flight, result: .success(outcome), delivery: delivery, started: mark)
                    }
                    await shareWrite(end.delivery, of: key)
                    return end
                }
                // NB: told once the fetch's value is stored: a mutation sent then is made over it.
                await fetchStored?()
                return end
            } catch {
                // NB: the readers get the error once the fetch has ended (see `KeyChannel.flight`).
                return .init(flight: flight, result: .failure(error), started: mark)
            }
        }
    }

    /// Writes what a fetch of `key`, which `sent` those validators, found: a new value through
    /// the tiers, or a confirmation of the cached one (a 304, or an equal value).
    private func write(
        _ result: FetchResult<Value>, for key: Key, in channel: KeyChannel<Value>, sent: Validators,
        keepingWritesAfter started: UInt64?
    ) async throws -> (SyncOutcome, KeyChannel<Value>.Delivery) {
        switch result {
        case .notModified(let validators):
            // NB: the 304 answers the validators sent, so the value they came with is current,
            // also when it expired while the request was on its way (a slow answer, a clock
            // that moved on): it is confirmed, not removed and fetched again in full.
            guard let current = await lookUp(key, keepingExpired: sent != .none).hit,
                current.validators == sent || !isExpired(current.writtenAt, at: now())
            else {
                // NB: nothing is cached, so nothing holds the validators: the next fetch is full.
                throw UnexpectedNotModified(key: key.persistentKey)
            }
            // NB: the 304 confirms the value the sent validators came with. An entry written
            // since (by another process on the file) carries others: it stays as it is (its
            // age too), and the readers get it.
            guard current.validators == sent else {
                let delivery = KeyChannel<Value>.Delivery.confirmed(
                    current.value, writtenAt: current.writtenAt, version: current.version,
                    validators: current.validators)
                return (.notModified, publish(delivery, in: channel))
            }
            return (.notModified, try await confirm(current, for: key, in: channel, sent: sent, validators: validators))
        case .modified(let value, let validators):
            if let isUnchanged, let current = await lookUp(key).hit, isUnchanged(current.value, value) {
                // NB: compared by value: only the version compared identifies the stored entry.
                let delivery = try await confirm(current, for: key, in: channel, sent: .none, validators: validators)
                return (.notModified, delivery)
            }
            let delivery = try await writeThrough(
                value, for: key, in: channel, origin: .remote, validators: validators, keepingWritesAfter: started)
            return (.updated, delivery)
        }
    }

    /// The validators stored with the value of `key`: from memory, else from the persistent
    /// tier without reading the value; none when nothing is stored, it cannot be read or it
    /// has expired (a 304 could not bring it back).
    private func storedValidators(of key: Key) async -> Validators {
        let date = now()
        if let entry = memory.entry(for: key) { return isExpired(entry.writtenAt, at: date) ? .none : entry.validators }
        guard let stored = try? await tier?.validators(for: key), !isExpired(stored.writtenAt, at: date) else {
            return .none
        }
        return stored.validators
    }

    /// Fetches `key` in the background; its result or error reaches the readers. The fetch
    /// runs to its end: nobody's leaving cancels it.
    func revalidate(_ key: Key) {
        fetchTask(key)
    }

    /// A task that fetches `key` (see ``flight(_:in:unlessWrittenAfter:skippingFresh:)``); it
    /// uses the key's channel from now until it ends. With `subscriber`, that reader is told
    /// how the fetch ended, after everything it delivered. Cancelling the task stops its wait
    /// (and the fetch, when nobody else waits for it).
    @discardableResult
    func fetchTask(_ key: Key, unlessWrittenAfter seen: UInt64? = nil, reportingTo subscriber: UInt64? = nil)
        -> Task<Void, Never>
    {
        let channel = checkOutChannel(for: key)
        return Task {
            defer { checkInChannel(for: key) }
            guard let end = try? await flight(key, in: channel, unlessWrittenAfter: seen) else { return }
            if let subscriber { channel.readers.send(.fetchEnded(end), to: subscriber) }
        }
    }
}

extension KeyChannel.FlightEnd {
    /// A fetch that wrote nothing: skipped, or superseded by a save.
    init(skipped flight: UInt64) {
        self.init(flight: flight, result: .success(.skipped), delivery: nil, started: nil)
    }

    /// A fetch that delivered nothing, whose request started at `mark`.
    init(flight: UInt64, result: Result<SyncOutcome, any Error>, started mark: KeyChannel.Mark) {
        self.init(flight: flight, result: result, delivery: nil, started: mark)
    }
}
