import Scenarios

/// Scenario 1: the kit's refresh cycle against two hand-written baselines and two OpenCombine
/// peers, all five measured in one group.
///
/// Every run times `cycles` refresh cycles of each subject in turn, so all five meet the same
/// machine; each subject's figure is the median of `runs` such runs. A cycle's time is mostly
/// thread hand-offs (the waiter's resumption goes through the global executor and back to the
/// main actor), whose cost depends on what the other core is doing, so many short runs after a
/// long warm-up give steadier medians than a few long ones.
@MainActor
struct RefreshCycleComparison {
    let kit: KitRefresher
    let bare: BareRefresher
    let continuation = ContinuationRefresher()
    let peer = CombineRefresher()
    let leanPeer = LeanCombineRefresher()
    let parking = ParkingRefresher()
    let runs = 31
    let cycles = 5_000
    let warmUp = 20_000

    enum Subject: CaseIterable {
        case kit, bare, continuation, peer, leanPeer, parking
    }

    func cycle(_ subject: Subject, _ input: Int) async {
        switch subject {
        case .kit: await kit.cycle(input)
        case .bare: await bare.cycle(input)
        case .continuation: await continuation.cycle(input)
        case .peer: await peer.cycle(input)
        case .leanPeer: await leanPeer.cycle(input)
        case .parking: await parking.cycle(input)
        }
    }

    /// Each subject's median time per 1,000 cycles.
    func medians() async -> [Subject: Duration] {
        for subject in Subject.allCases {
            for input in 0..<warmUp { await cycle(subject, input) }
        }
        var times: [Subject: [Duration]] = [:]
        for _ in 0..<runs {
            for subject in Subject.allCases {
                let elapsed = await time { for input in 0..<cycles { await cycle(subject, input) } }
                times[subject, default: []].append(elapsed / cycles * 1_000)
            }
        }
        return times.mapValues { $0.sorted()[runs / 2] }
    }

    func rows() async -> [Row] {
        let medians = await medians()
        func median(_ subject: Subject) -> Duration { medians[subject]! }  // NB: every subject ran.
        let kitTime = median(.kit)
        // NB: the floor is whichever hand-written baseline was faster in this run.
        let floor = min(median(.bare), median(.continuation))
        let floorName = median(.bare) <= median(.continuation) ? "Task.value" : "continuation"
        return [
            Row(
                "1. refresh cycle, kit / floor, the faster hand-written baseline (\(ms(kitTime)) vs \(ms(floor)) per 1,000, \(floorName))",
                kitTime, over: floor, atMost: 1.25),
            Row(
                scenario: "1. refresh cycle, OpenCombine peer / kit (\(ms(median(.peer))) per 1,000)",
                measured: format(ratio(median(.peer), kitTime)), target: "≥ 2.00",
                passed: ratio(median(.peer), kitTime) >= 2),
            Row(
                scenario:
                    "1. refresh cycle, lean OpenCombine peer / kit: no loading or error state (\(ms(median(.leanPeer))) per 1,000)",
                measured: format(ratio(median(.leanPeer), kitTime)), target: "≥ 1.00",
                passed: ratio(median(.leanPeer), kitTime) >= 1),
            Row(
                scenario:
                    "1. (context) hand-written baselines per 1,000: Task.value \(ms(median(.bare))), continuation \(ms(median(.continuation)))",
                measured: format(ratio(median(.bare), median(.continuation))), target: "—", passed: true),
            Row(
                scenario:
                    "1. (context) kit / hand-written parking on the main queue, no thread hand-off (\(ms(median(.parking))) per 1,000)",
                measured: format(ratio(kitTime, median(.parking))), target: "—", passed: true),
        ]
    }
}
