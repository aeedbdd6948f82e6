import ExampleSupport

/// A one-line spinner for a terminal: `⠋ loading…`, redrawn in place until stopped.
final class Spinner: Sendable {
    private let task: Task<Void, Never>
    private let console: Console

    init(console: Console, label: String) {
        self.console = console
        task = Task {
            let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
            var index = 0
            while !Task.isCancelled {
                console.write("\r\(frames[index % frames.count]) \(label)")
                index += 1
                // NB: animation pacing, not synchronisation.
                try? await Task.sleep(for: .milliseconds(80))
            }
        }
    }

    /// Stops the spinner and clears its line.
    func stop() async {
        task.cancel()
        await task.value
        console.write("\r\u{1B}[2K")
    }
}
