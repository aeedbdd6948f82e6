import Testing

@testable import ContentLoadingRepository

/// Which keys hold which elements: a write of a list says what it holds; a read says only
/// what it found too, since a write of the key may have come after the read began.
struct ElementHoldersTests {
    @Test func aWriteSaysWhatTheListHoldsAndNothingElse() {
        let holders = ElementHolders<String, Int>()
        holders.hold([1, 2], in: "x")
        holders.hold([3], in: "x")
        #expect(holders.keys(holding: 1).isEmpty && holders.keys(holding: 2).isEmpty)
        #expect(holders.keys(holding: 3) == ["x"])
        #expect(holders.positions(of: [3], in: "x") == [3: 0])
    }

    /// The race: a read of "x" began before a save of "x" that holds element 3, and records
    /// what it read after the save recorded its list.
    @Test func aReadThatEndsAfterAWriteTakesNoElementOfTheWriteAway() {
        let holders = ElementHolders<String, Int>()
        holders.hold([3], in: "x")  // the save
        holders.holdToo([1, 2], in: "x")  // the read that began before it
        #expect(holders.keys(holdingAnyOf: [3]) == ["x"], "a change of element 3 still reaches the list")
        #expect(holders.keys(holdingAnyOf: [1, 2]) == ["x"])
        #expect(holders.positions(of: [3, 1, 2], in: "x") == [3: 0, 1: 0, 2: 1], "checked where they are used")
    }

    @Test func aReadOfAListNoLongerHeldHoldsItsElements() {
        let holders = ElementHolders<String, Int>()
        holders.hold([1], in: "x")
        holders.release("x")
        holders.holdToo([4, 5], in: "x")
        #expect(holders.keys(holding: 1).isEmpty)
        #expect(holders.positions(of: [4, 5], in: "x") == [4: 0, 5: 1])
    }
}
