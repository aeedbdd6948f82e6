import ContentLoadingSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of an ``HTTPSession``: routes each task's events to its ``HTTPExchange``.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // NB: @unchecked because NSObject is not Sendable; the only state is behind the lock.
    private let exchanges = Locked<[Int: HTTPExchange]>([:])

    func register(_ exchange: HTTPExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> HTTPExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = exchange(dataTask)?.receive(response) ?? false
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // NB: every task is registered with its exchange before it starts.
        guard let exchange = exchange(dataTask) else { return }
        guard exchange.receive(data) else {
            // NB: the caller gets the failure now; the session may go on inflating a body
            // until it sees the cancellation (on Linux, to its end), and nothing more of it is kept.
            exchange.abandonWithRecordedFailure()
            exchange.cancel(dataTask)
            return
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // NB: never followed here: the exchange ends with the redirect, which the session's
        // caller follows with the request's own method, body and headers (`Redirect`).
        let exchange = exchange(task)
        if let target = request.url { exchange?.redirect(to: target, status: response.statusCode) }
        completionHandler(nil)
        exchange?.cancel(task)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(task)?.sent()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error: error)
    }
}
