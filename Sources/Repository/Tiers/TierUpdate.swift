import Foundation

/// What a ``PersistentTier`` update read and wrote (see ``PersistentTier/update(_:now:writtenAt:_:)``).
struct TierUpdate<Value: Sendable>: Sendable {
    /// The stored entry the transform was given; `nil` when there was none.
    let read: PersistedEntry<Value>?
    /// The value the transform returned and what the write stored; `nil` when it returned `nil`
    /// (nothing was written).
    let written: (value: Value, write: TierWrite<Value>)?

    /// What an update read, and `value`, what its transform made of it (`nil`: nothing), stored
    /// at `version` (`nil`: nothing was written); `kept` gives the value as the file keeps it,
    /// when that differs (an element with pending mutations shows them), which the readers get.
    init(
        read: PersistedEntry<Value>?, value: Value?, storedAt version: UInt64?,
        keeping kept: (Value) -> Value? = { _ in nil }
    ) {
        self.read = read
        written = version.flatMap { version in value.map { ($0, TierWrite(version: version, kept: kept($0))) } }
    }
}

/// Runs an update's read and write, `body`: the transform's error (an ``UpdateTransformFailure``)
/// and a ``CacheError`` already named are thrown as they are; a stored row that does not
/// validate is a failure to read, any other error a failure to write, each named by `failure`
/// (the operation and the error).
func namingUpdateFailures<Result>(
    _ failure: (_ operation: String, _ error: any Error) -> CacheError, _ body: () async throws -> Result
) async throws -> Result {
    do {
        return try await body()
    } catch let error as UpdateTransformFailure {
        throw error
    } catch let error as CacheError {
        throw error
    } catch let corrupt as DiskCache.CorruptEntry {
        throw failure("read", corrupt)
    } catch {
        throw failure("write", error)
    }
}

extension PersistedEntry where Value: Decodable {
    /// The value of `stored`, decoded, with its write time, version and validators.
    ///
    /// - Throws: The error `failure` makes of a value that does not decode.
    init(decoding stored: DiskCache.Entry, _ failure: (_ error: any Error) -> CacheError) throws {
        let value: Value
        do {
            value = try JSONDecoder().decode(Value.self, from: stored.data)
        } catch {
            throw failure(error)
        }
        self.init(value: value, writtenAt: stored.writtenAt, version: stored.version, validators: stored.validators)
    }
}

/// An error the transform of an update threw, carried out of the tier as it is (not named as a
/// failure of the tier's read or write).
struct UpdateTransformFailure: Error {
    let error: any Error

    /// `transform(input)`, its error wrapped.
    static func transforming<Input, Output>(_ input: Input, with transform: (Input) throws -> Output) throws -> Output {
        do {
            return try transform(input)
        } catch {
            throw UpdateTransformFailure(error: error)
        }
    }
}
