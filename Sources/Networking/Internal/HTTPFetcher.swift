import ContentLoadingSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches one http(s) URL through `URLSession`, with cancellation and a timeout.
struct HTTPFetcher: Sendable {
    let session: URLSession
    let timeout: Duration

    func fetch(_ url: URL) async throws -> TransportResponse {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout.seconds
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (body, status) = try await mapErrors(url) { try await send(request) }
        return TransportResponse(url: url, statusCode: status, body: body)
    }

    /// Sends `request` and returns the body and HTTP status.
    ///
    /// NB: our own bridge over the completion-handler API, so that cancelling the calling
    /// task cancels the request the same way on every platform.
    private func send(_ request: URLRequest) async throws -> (Data, Int?) {
        let running = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int?), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode))
                    }
                }
                running.withLock { $0 = task }
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            running.withLock { $0 }?.cancel()
        }
    }
}

extension HTTPFetcher {
    /// Turns `URLSession` errors into ``APIError``s naming the URL, and its cancellation into
    /// `CancellationError`.
    private func mapErrors<T>(_ url: URL, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as URLError {
            switch error.code {
            case .cancelled: throw CancellationError()
            case .timedOut: throw APIError.timedOut(url: url, after: timeout)
            default: throw APIError.transport(url: url, reason: error.localizedDescription)
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            throw APIError.transport(url: url, reason: error.localizedDescription)
        }
    }
}

extension Duration {
    /// The duration in seconds, as `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
