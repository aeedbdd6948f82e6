import Foundation

extension DiskCache {
    /// `date` as the file stores a time: seconds since 1970.
    ///
    /// - Throws: ``UnstorableTime`` when it is not one the file keeps
    ///   (`Date.isStorable(secondsSince1970:)`; a clock that gave an infinite time, say): the
    ///   write stores nothing, where it stored an entry that was read back as corrupt and removed.
    static func storedTime(_ date: Date) throws -> Double {
        let seconds = date.timeIntervalSince1970
        guard Date.isStorable(secondsSince1970: seconds) else { throw UnstorableTime(seconds: seconds) }
        return seconds
    }
}

/// A write time the disk tier cannot keep, from the clock the repository was given.
struct UnstorableTime: Error, CustomStringConvertible {
    /// The time, in seconds since 1970.
    let seconds: Double

    var description: String {
        "the clock gave \(seconds) seconds since 1970, which is no time the file keeps (finite, within 3,000 years of "
            + "1970); nothing was written"
    }
}
