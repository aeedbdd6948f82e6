import ContentLoadingRepository

/// Sets a contact's phone, sent to a `PagedCatalog`: the server's answer is the contact it then
/// holds. With a `stamp`, the server stores the phone followed by it, so its answer is not the
/// edit.
struct CatalogPhone: Mutation {
    let id: Int
    let phone: String
    var stamp: String? = nil
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone = phone }
    func send(using catalog: PagedCatalog, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        catalog.update(id, phone: stamp.map { "\(phone) \($0)" } ?? phone)
        return MutationResult(value: catalog.contacts.first { $0.id == id })
    }
}
