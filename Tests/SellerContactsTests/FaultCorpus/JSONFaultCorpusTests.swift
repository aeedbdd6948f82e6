import ContentLoadingNetworking
import Foundation
import KitTestSupport
import SellerContacts
import SellerContactsCommand
import Testing

/// Every generated body, through `APIClient` (the seller-contacts API manager) and through the
/// `seller-contacts` command: a clear error naming the file and what failed, or the contacts.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct JSONFaultCorpusTests {
    /// The corpus, written once as files (a `file://` URL is what the command loads).
    ///
    /// NB: in the process's scratch folder, which goes when the tests end, so the 50 MB
    /// document does not pile up in the temporary directory. Only names and URLs are kept, not
    /// the bodies: a global `Data` held in an enum payload is invisible to LeakSanitizer's scan
    /// of globals, which would report it as leaked.
    static let corpus: [(fault: (name: String, outcome: JSONFault.Outcome), url: URL)] = {
        // NB: where the scratch folder cannot be made, the old shared folder (a write that fails
        // there leaves its file missing, and that fault's tests fail).
        let directory =
            (try? TestScratch.directory("json-fault-corpus"))
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("clk-json-fault-corpus")
        return JSONFaults.all().enumerated().map { index, fault in
            let url = directory.appendingPathComponent("fault-\(index).json")
            try? fault.body.write(to: url)
            return ((fault.name, fault.outcome), url)
        }
    }()

    static var indices: Range<Int> { 0..<corpus.count }

    @Test func theCorpusHoldsAtLeast200Inputs() {
        #expect(Self.corpus.count >= 200)
        #expect(Self.corpus.allSatisfy { FileManager.default.fileExists(atPath: $0.url.path) })
    }

    @Test(arguments: indices)
    func theAPIManagerThrowsAClearErrorOrDecodes(index: Int) async throws {
        let (fault, url) = Self.corpus[index]
        let manager = SellerContactsAPIManager(urlStore: FixedSellerContactsURLStore(url))
        switch fault.outcome {
        case .accepted(let count):
            #expect(try await manager.sellerContacts().count == count, "\(fault.name)")
        case .rejected(let mentioning):
            let error = await #expect(throws: APIError.self, "\(fault.name)") { try await manager.sellerContacts() }
            let message = error?.description ?? ""
            #expect(!message.contains("\n"), "\(fault.name): one line")
            #expect(message.contains(url.path), "\(fault.name): names the file in \(message)")
            for text in mentioning { #expect(message.contains(text), "\(fault.name): names \(text) in \(message)") }
        }
    }

    @MainActor
    @Test(arguments: indices)
    func theCommandPrintsOneClearLineWithTheRightStatus(index: Int) async throws {
        let (fault, url) = Self.corpus[index]
        let result = await runSellerContacts(["--url", url.absoluteString])
        switch fault.outcome {
        case .accepted(let count):
            #expect(result.status == 0, "\(fault.name)")
            #expect(result.errors.isEmpty, "\(fault.name)")
            #expect(
                result.output.contains(count == 0 ? "state: empty" : "state: success (\(count) contact"),
                "\(fault.name)")
        case .rejected(let mentioning):
            expectOneClearErrorLine(result, status: 1, mentioning: [url.path] + mentioning, fault.name)
        }
    }
}
