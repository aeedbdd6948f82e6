// redirect-cancel-stress URL [REQUESTS]
//
// A test helper: loads URL (a redirect) REQUESTS times, 100 at a time, cancelling each load
// after a random 0–20 ms, so that cancellations land while the session waits for the answer
// to its redirect callback. FoundationNetworking traps ("Received callback for HTTP
// redirection, but we're not waiting for it") when that answer comes after the task was
// cancelled: a process that does not print "done N" crashed, which the test that runs it
// reports with its standard error.
import ContentLoadingNetworking
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let url = arguments.first.flatMap(URL.init(string:)) else {
    FileHandle.standardError.write(Data("usage: redirect-cancel-stress URL [REQUESTS]\n".utf8))
    exit(2)
}
let requests = arguments.dropFirst().first.flatMap { Int($0) } ?? 3_000
let transport = Transport.standard()

for _ in 0..<max(1, requests / 100) {
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
print("done \(requests)")
