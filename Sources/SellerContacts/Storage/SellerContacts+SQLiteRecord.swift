import ContentLoadingRepository

extension SellerContacts: SQLiteRecord {
    /// `seller_contacts`.
    public static let tableName = "seller_contacts"

    /// Version 1: the contacts table, keyed by `order` (the contact's ``id``).
    public static let migrations = [
        """
        CREATE TABLE seller_contacts (
            "order" INTEGER PRIMARY KEY NOT NULL,
            phone TEXT,
            address TEXT
        )
        """
    ]

    /// `order`, `phone`, `address`.
    public static let columns = ["\"order\"", "phone", "address"]

    /// Lowest order first.
    public static let orderBy = "\"order\""

    /// Binds `order`, `phone`, `address` to parameters 1–3.
    public func bind(to statement: SQLiteStatement) throws {
        try statement.bind(order, at: 1)
        try statement.bind(phone, at: 2)
        try statement.bind(address, at: 3)
    }

    /// Reads `order`, `phone`, `address` from columns 0–2.
    public init(row: SQLiteStatement) throws {
        self.init(address: row.text(at: 2), order: row.int(at: 0), phone: row.text(at: 1))
    }

    /// Binds an `order` to parameter `index`.
    public static func bind(id: Int, to statement: SQLiteStatement, at index: Int32) throws {
        try statement.bind(id, at: index)
    }
}
