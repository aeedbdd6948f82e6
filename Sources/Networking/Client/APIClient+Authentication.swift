import ContentLoading
import Foundation

extension APIClient {
    /// Sends `request` with the ``adapter``'s credentials; after a `401`, renews them (once for
    /// every request refused with the same ones) and sends it once more. A request cancelled
    /// while the refresh runs, or whose load's deadline passes then, stops waiting at once.
    func authenticatedResponse(to request: TransportRequest) async throws -> TransportResponse {
        guard let adapter else { return try await exchange(request) }
        let ticket = credentialRefresh.ticket
        let response = try await exchange(adapted(request, by: adapter))
        guard response.statusCode == 401 else { return response }
        // NB: a load under a retry policy's deadline stops waiting for the refresh then, as the
        // transport ends an attempt then.
        let deadline = LoadDeadline.current.map { load in
            let error = APIError.deadlineExceeded(url: request.url, after: load.duration)
            return CredentialRefresh.Deadline(end: load.end, error: error)
        }
        let renewed = try await credentialRefresh.renew(after: ticket, until: deadline) {
            try await adapter.refreshCredentials()
        }
        guard renewed else { return response }
        return try await exchange(adapted(request, by: adapter), isAfterCredentialRefresh: true)
    }

    /// Sends `request` through the transport and, when someone observes (``onExchange``),
    /// reports the exchange.
    private func exchange(_ request: TransportRequest, isAfterCredentialRefresh: Bool = false) async throws
        -> TransportResponse
    {
        guard let onExchange else { return try await transport.send(request) }
        let start = ContinuousClock.now
        var report = ExchangeReport(
            method: request.method, url: request.url.redactedForDisplay, statusCode: nil,
            bytesSent: request.body?.count ?? 0, bytesReceived: 0, duration: .zero, attempt: RetryAttempt.number,
            isAfterCredentialRefresh: isAfterCredentialRefresh)
        do {
            let response = try await transport.send(request)
            (report.statusCode, report.bytesReceived) = (response.statusCode, response.body.count)
            report.duration = ContinuousClock.now - start
            onExchange(report)
            return response
        } catch {
            report.failure = String(describing: error)
            report.duration = ContinuousClock.now - start
            onExchange(report)
            throw error
        }
    }

    /// `request` with the adapter's credentials, its secret headers marked so.
    private func adapted(_ request: TransportRequest, by adapter: any RequestAdapter) async throws
        -> TransportRequest
    {
        var adapted = try await adapter.adapt(request)
        adapted.secretHeaders.formUnion(adapter.secretHeaderNames)
        return adapted
    }
}
