/// An element of a list or page that does not encode for its row; nothing of the list or page
/// is written. A ``CacheError`` names the list's key, and this its element.
struct ElementEncodingFailure: Error {
    /// The element's id, in its stable text form.
    let id: String
    /// The element type.
    let type: Any.Type
    /// What the encoder threw.
    let error: any Error

    /// "its element 2 does not encode as Reading (at $.value: Unable to encode Double.nan
    /// directly in JSON.)".
    var reason: String {
        let why = (error as? EncodingError)?.whereAndWhy ?? "\(error)"
        return "its element \(id) does not encode as \(type) (\(why))"
    }
}
