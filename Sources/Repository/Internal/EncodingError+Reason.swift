import ContentLoadingSupport

extension EncodingError {
    /// Where in the value the encoder stopped, and why: "at $.reading: Unable to encode
    /// Double.nan directly in JSON.".
    var whereAndWhy: String {
        switch self {
        case .invalidValue(_, let context):
            "at \(context.codingPath.jsonPath): \(context.debugDescription)"
        @unknown default:
            "\(self)"
        }
    }
}
