import ContentLoading
import Foundation

/// What a ``Transport`` is asked to load: a URL and, for a revalidation, the validators of the
/// copy the caller holds.
public struct TransportRequest: Sendable, Hashable {
    /// The URL to load.
    public var url: URL
    /// The validators of the caller's copy, sent as `If-None-Match` and `If-Modified-Since`
    /// by an HTTP transport (a server whose resource has not changed answers 304); ignored by
    /// transports without validators. `Validators.none` for an unconditional load.
    public var validators: Validators

    /// Creates a request.
    public init(url: URL, validators: Validators = .none) {
        self.url = url
        self.validators = validators
    }
}
