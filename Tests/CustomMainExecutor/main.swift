// A child process for the custom-main-executor test: the main actor runs on an executor of the
// program's own (a run loop that never drains the main dispatch queue), and refreshes are
// awaited on it. Prints "done <n>" when every awaited refresh settled; a hang is killed by the
// test's time limit.
import ContentLoading
import ContentLoadingSupport
import Foundation

#if compiler(>=6.3)
    @_spi(ExperimentalCustomExecutors) import _Concurrency

    /// A main executor of the program's own: a queue of jobs run on the main thread.
    final class RunLoopMainExecutor: MainExecutor, @unchecked Sendable {
        // NB: @unchecked: `jobs` and `isStopped` are read and written under `condition` only.
        private let condition = NSCondition()
        private var jobs: [UnownedJob] = []
        private var isStopped = false

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            condition.withLock {
                jobs.append(job)
                condition.signal()
            }
        }

        func run() throws {
            while let job = nextJob() { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }

        func stop() {
            condition.withLock {
                isStopped = true
                condition.signal()
            }
        }

        func checkIsolated() {}

        private func nextJob() -> UnownedJob? {
            condition.withLock {
                while jobs.isEmpty && !isStopped { condition.wait() }
                return isStopped ? nil : jobs.removeFirst()
            }
        }
    }

    struct RunLoopExecutorFactory: ExecutorFactory {
        static let mainExecutor: any MainExecutor = RunLoopMainExecutor()
        static let defaultExecutor: any TaskExecutor = PlatformExecutorFactory.defaultExecutor
    }

    @MainActor func awaitRefreshes(_ count: Int) async {
        let model = ContentLoadingViewModel<Int, Int> { input in input }
        for round in 0..<count {
            let state = await model.refresh(round).settled()
            guard state == .success(round) else {
                FileHandle.standardError.write(Data("refresh \(round) settled in \(state)\n".utf8))
                exit(1)
            }
        }
        let signal = SettleSignal<Int>()
        Task.detached { signal.resolve(count) }
        guard await signal.wait() == count else { exit(1) }
        print("parking \(ParkingSpot.isAvailable ? "on" : "off")")
        print("done \(count)")
        exit(0)
    }

    let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100
    if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
        _createExecutors(factory: RunLoopExecutorFactory.self)
        Task { @MainActor in await awaitRefreshes(rounds) }
        try MainActor.executor.run()
    } else {
        print("unsupported")
    }
#else
    print("unsupported")
#endif
