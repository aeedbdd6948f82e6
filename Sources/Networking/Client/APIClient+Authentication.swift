import Foundation

extension APIClient {
    /// Sends `request` with the ``adapter``'s credentials; after a `401`, renews them (once for
    /// every request refused with the same ones) and sends it once more.
    func authenticatedResponse(to request: TransportRequest) async throws -> TransportResponse {
        guard let adapter else { return try await transport.send(request) }
        let generation = credentialRefresh.generation
        let response = try await transport.send(adapted(request, by: adapter))
        guard response.statusCode == 401 else { return response }
        let renewed = try await credentialRefresh.renew(after: generation) {
            try await adapter.refreshCredentials()
        }
        guard renewed else { return response }
        return try await transport.send(adapted(request, by: adapter))
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
