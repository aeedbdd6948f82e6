// sqlite-crash-writer PATH ROWS STOP_AT [replace|write|cache|pages|outbox|outbox-replay URL]
//
// A test helper: opens the SellerContacts store at PATH and writes ROWS contacts in one
// transaction (replaceAll, or write). After STOP_AT rows it prints "writing" and stops in the
// middle of the transaction, for the test to kill it with SIGKILL. If it is not killed it
// never commits. With `cache`, it opens a disk cache at PATH instead and saves ROWS entries.
// With `pages`, it prints "paging" and pages through a persisted list in an element store at
// PATH, round after round, until it is killed (ROWS and STOP_AT are not used). With `outbox`,
// it prints "performing" and performs mutations of one element through a paused outbox over an
// element store at PATH, printing "performed ROWS.N" after each, until it is killed (ROWS is
// the round's number). With `outbox-replay URL` it does the same with an outbox that sends
// each mutation to URL (a record of the fixture server) as it can; with ROWS 0 it only sends
// what is pending and prints "drained" (or "stuck N").
import ContentLoadingRepository
import Foundation
import SellerContacts

let arguments = CommandLine.arguments
guard arguments.count >= 4, let rows = Int(arguments[2]), let stopAt = Int(arguments[3]) else {
    FileHandle.standardError.write(
        Data("usage: sqlite-crash-writer PATH ROWS STOP_AT [replace|write|cache|pages|outbox|outbox-replay URL]\n".utf8)
    )
    exit(64)
}
exitWhenOrphaned()
do {
    if arguments.count > 4, arguments[4] == "pages" { try await pageForever(path: arguments[1]) }
    if arguments.count > 4, arguments[4] == "outbox" { try await performForever(path: arguments[1], round: rows) }
    if arguments.count > 5, arguments[4] == "outbox-replay", let url = URL(string: arguments[5]) {
        try await performAndSendForever(path: arguments[1], url: url, round: rows)
    }
    if arguments.count > 4, arguments[4] == "cache" {
        let cache = KeyedRepository<Int, String>(disk: try DiskCache(.file(path: arguments[1]))) { "\($0)" }
        for row in 0..<rows { try await cache.save("row \(row)", for: row) }
        print("committed")
        exit(0)
    }
    let store = try SQLiteStore<SellerContacts>(.file(path: arguments[1]))
    await store.setWriteProgress { written in
        guard written >= stopAt else { return }
        FileHandle.standardOutput.write(Data("writing \(written)\n".utf8))
        while true { sleep(60) }  // NB: holds the transaction open until the test kills the process.
    }
    let contacts = (0..<rows).map {
        SellerContacts(address: "Crash Street \($0)", order: 1_000_000 + $0, phone: "+1 555 \($0)")
    }
    if arguments.count > 4, arguments[4] == "write" {
        try await store.write(contacts)
    } else {
        try await store.replaceAll(with: contacts, syncedAt: Date())
    }
    print("committed")
} catch {
    // NB: an error thrown at the top level traps; the test wants its message and a status.
    FileHandle.standardError.write(Data("sqlite-crash-writer: \(error)\n".utf8))
    exit(1)
}
