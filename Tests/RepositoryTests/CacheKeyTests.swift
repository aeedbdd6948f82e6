import ContentLoadingRepository
import Foundation
import Testing

/// An `Encodable` key's text is the same for equal keys, in every run: a `Set` in it comes in
/// the order of the process's hash seed, so its elements are sorted in the text.
@Suite struct CacheKeyTests {
    struct Search: CacheKey, Codable {
        let query: String
        let tags: Set<String>
    }

    struct Everything: CacheKey, Codable {
        let date: Date
        let data: Data
        let url: URL
        let list: [Int]
        let names: [String: Int]
        let missing: Int?
        let weights: [Double: String]?
        let groups: [Set<Int>]?
    }

    /// `tags` as a set that grew and shrank: equal to a fresh one, in another order.
    static func tags(_ tags: Set<String>, grownFrom size: Int) -> Set<String> {
        var grown = Set((0..<size).map { "filler \($0)" })
        grown.formUnion(tags)
        grown.subtract((0..<size).map { "filler \($0)" })
        return grown
    }

    @Test func equalKeysHoldingASetHaveOneSortedText() {
        let fresh = Search(query: "tea", tags: ["e", "d", "c", "b", "a"])
        let keys = [fresh] + [10, 100, 1_000].map { Search(query: "tea", tags: Self.tags(fresh.tags, grownFrom: $0)) }
        for key in keys {
            #expect(key == fresh)
            #expect(key.persistentKey == #"{"query":"tea","tags":["a","b","c","d","e"]}"#)
        }
    }

    @Test func setsAndDictionariesWrittenAsListsAreSortedWhereverTheyAre() {
        let key = Everything(
            date: Date(timeIntervalSinceReferenceDate: 12.5), data: Data([1, 2, 3]), url: URL(string: "https://a.b/c")!,
            list: [3, 1, 2], names: ["b": 1, "a": 2], missing: nil, weights: [2.5: "z", 0.5: "y", 1.5: "x"],
            groups: [[3, 1, 2], [9, 8]])
        #expect(
            key.persistentKey
                == #"{"data":"AQID","date":12.5,"groups":[[1,2,3],[8,9]],"list":[3,1,2],"names":{"a":2,"b":1},"#
                + #""url":"https://a.b/c","weights":[0.5,"y",1.5,"x",2.5,"z"]}"#,
            "an array keeps its order; a set's elements and a list-written dictionary's entries are sorted")
    }

    @Test func aPartThatEncodesNothingIsAnEmptyObjectAsJSONEncoderWritesIt() {
        struct Nothing: Codable, Hashable {
            init() {}
            init(from decoder: any Decoder) throws {}
            func encode(to encoder: any Encoder) throws {}
        }
        struct Filter: CacheKey, Codable {
            let tags: Set<Int>
            let nothing: Nothing
        }
        #expect(Filter(tags: [2, 1], nothing: Nothing()).persistentKey == #"{"nothing":{},"tags":[1,2]}"#)
    }

    @Test func aKeyWithNothingUnorderedKeepsItsSortedJSON() throws {
        let key = Everything(
            date: Date(timeIntervalSinceReferenceDate: 12.5), data: Data([1, 2, 3]), url: URL(string: "https://a.b/c")!,
            list: [3, 1, 2], names: ["b": 1, "a": 2], missing: nil, weights: nil, groups: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(key.persistentKey == String(decoding: try encoder.encode(key), as: UTF8.self), "what files hold")
    }

    @Test func aValueStoredUnderAKeyWithASetIsReadWithAnEqualKeyAfterARelaunch() async throws {
        let path = try temporaryCachePath()
        let saved = Search(query: "tea", tags: ["green", "black", "white", "oolong", "herbal"])
        try await KeyedRepository<Search, String>(disk: try DiskCache(.file(path: path))) { _ in "fetched" }
            .save("stored", for: saved)

        let relaunched = KeyedRepository<Search, String>(disk: try DiskCache(.file(path: path))) { _ in "fetched" }
        let equal = Search(query: "tea", tags: Self.tags(saved.tags, grownFrom: 1_000))
        #expect(try await relaunched.value(for: equal, policy: .returnCacheDontLoad)?.value == "stored")
    }
}
