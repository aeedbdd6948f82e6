import Testing

@testable import ContentLoadingRepository

/// An I/O failure is called a full disk only when the file's volume has a size and under 1 MiB
/// free (a full disk itself: `FullDiskTests`, in the fault corpus).
@Suite struct SQLiteDiskFullWordingTests {
    #if os(Linux)
        /// `/proc` reports a size of 0 and 0 bytes free: the failure to open `/proc/self/mem`
        /// as a database was called "the disk is full".
        @Test func anIOFailureOnAVolumeOfNoSizeIsNotCalledAFullDisk() {
            let explained = SQLiteDatabase.explained("disk I/O error", code: 10, path: "/proc/self/mem")
            #expect(explained == "disk I/O error")
        }
    #endif
}
