import SellerContacts
import SellerContactsCommand
import Testing

/// Every numeric option is checked: a bad value is a usage error naming it, never a crash
/// and never a silent change.
@Suite struct OptionsTests {
    @Test(
        arguments: ["--timeout", "--deadline"],
        ["1e300", "inf", "-inf", "nan", "1e16", "86401", "-1", "0", "0.0001", "x", ""])
    func outOfRangeSecondsAreAUsageError(option: String, value: String) {
        #expect(throws: UsageError.self, "\(option) \(value)") { try Options.parse([option, value]) }
    }

    @Test func theErrorSaysWhatIsWrong() throws {
        let tiny = #expect(throws: UsageError.self) { try Options.parse(["--timeout", "0.0001"]) }
        #expect(tiny?.message.contains("below the 1 ms resolution") == true)
        let huge = #expect(throws: UsageError.self) { try Options.parse(["--deadline", "1e300"]) }
        #expect(huge?.message.contains("more than a day") == true)
        let notANumber = #expect(throws: UsageError.self) { try Options.parse(["--timeout", "nan"]) }
        #expect(notANumber?.message == "--timeout needs a number of seconds from 0.001 to 86400, got 'nan'")
    }

    @Test(arguments: ["-1", "11", "1.5", "x", ""])
    func retriesOutsideZeroToTenAreAUsageError(value: String) {
        let error = #expect(throws: UsageError.self) { try Options.parse(["--retries", value]) }
        #expect(error?.message == "--retries needs a whole number from 0 to 10, got '\(value)'")
    }

    @Test func retriesAreKept() throws {
        #expect(try Options.parse([]).retries == 0)
        #expect(try Options.parse(["--retries", "10"]).retries == 10)
    }

    @Test(arguments: [("0.001", Duration.milliseconds(1)), ("2.5", .milliseconds(2_500)), ("86400", .seconds(86_400))])
    func secondsInRangeAreKeptToTheMillisecond(value: String, duration: Duration) throws {
        #expect(try Options.parse(["--timeout", value]).timeout == duration)
        #expect(try Options.parse(["--deadline", value]).deadline == duration)
    }
}

/// The command as a process sees it: a bad number exits 64 with a usage line, no crash.
@MainActor
@Suite struct NumericOptionCommandTests {
    @Test(arguments: ["1e300", "inf", "1e16", "0.0001"])
    func aBadTimeoutExits64(value: String) async {
        let result = await runSellerContacts(["--timeout", value])
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("seller-contacts: --timeout"))
    }

    @Test(arguments: [
        ["--url", "//alice:s3cr3t@127.0.0.1/x"], ["http://alice:s3cr3t@127.0.0.1/x"],
        ["--url", "no-scheme?token=s3cr3t"], ["https://host/cb#access_token=s3cr3t"],
    ])
    func usageErrorsNeverEchoACredential(arguments: [String]) {
        let error = #expect(throws: UsageError.self) { try Options.parse(arguments) }
        #expect(error?.message.contains("s3cr3t") == false, "\(error?.message ?? "")")
        #expect(error?.message.contains("alice") == false, "\(error?.message ?? "")")
    }
}

/// `--edit ORDER --phone TEXT`: both or neither, with a cache file and an http(s) URL.
@Suite struct EditOptionTests {
    static let valid = ["--cache", "/tmp/c.sqlite", "--url", "http://127.0.0.1:1/contacts"]

    @Test func anEditIsKeptWithItsPhoneAndAnEmptyPhoneRemovesIt() throws {
        #expect(
            try Options.parse(Self.valid + ["--edit", "2", "--phone", "+1 555"]).edit
                == PhoneEdit(order: 2, phone: "+1 555"))
        #expect(try Options.parse(Self.valid + ["--phone", "", "--edit", "2"]).edit == PhoneEdit(order: 2, phone: nil))
        #expect(try Options.parse(Self.valid).edit == nil)
    }

    @Test(arguments: [
        (["--edit", "2"], "--edit needs --phone TEXT"),
        (["--phone", "1"], "--phone needs --edit ORDER"),
        (["--edit", "two", "--phone", "1"], "--edit needs a contact's order"),
    ])
    func aHalfOrBadEditIsAUsageError(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try Options.parse(Self.valid + arguments) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test func anEditNeedsACacheAndAnHTTPURL() {
        let noCache = #expect(throws: UsageError.self) {
            try Options.parse(["--url", "http://127.0.0.1:1/c", "--edit", "2", "--phone", "1"])
        }
        #expect(noCache?.message.hasPrefix("--edit needs --cache PATH") == true)
        let file = #expect(throws: UsageError.self) {
            try Options.parse(["--cache", "/tmp/c", "--url", "file:///tmp/c.json", "--edit", "2", "--phone", "1"])
        }
        #expect(file?.message.hasPrefix("--edit needs an http(s) --url") == true)
    }
}
