extension [any CodingKey] {
    /// The path as a JSON path: `$` for the root, `[3]` for an index, `.name` for a key.
    package var jsonPath: String {
        reduce("$") { path, key in
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                return path + "[\(index)]"
            }
            return path + "." + key.stringValue
        }
    }
}
