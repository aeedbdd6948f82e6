// cancel-stress URL [LOADS]
//
// A test helper: loads URL LOADS times, 100 at a time, cancelling each load after a random
// 0–20 ms, while a thread keeps a core busy (the races it looks for show on a loaded
// machine). It prints "done N" when every load has ended; a process that does not print it
// crashed, which the test that runs it reports with its standard error.
import ContentLoadingNetworking
import ContentLoadingSupport
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let url = arguments.first.flatMap(URL.init(string:)) else {
    FileHandle.standardError.write(Data("usage: cancel-stress URL [LOADS]\n".utf8))
    exit(2)
}
let loads = arguments.dropFirst().first.flatMap { Int($0) } ?? 3_000
let transport = Transport.standard()

/// Whether the loads are done: the busy thread spins until then.
let finished = Locked(false)
Thread.detachNewThread {
    var spins = 0
    while !finished.withLock({ $0 }) { spins &+= 1 }
}

for _ in 0..<max(1, loads / 100) {
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<100 {
            group.addTask {
                let load = Task { try await transport.send(TransportRequest(url: url)) }
                try? await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
                load.cancel()
                _ = try? await load.value
            }
        }
    }
}
finished.withLock { $0 = true }
print("done \(loads)")
