/// An edit of one element that must reach the server: performed through an ``Outbox``, it is
/// stored in the element store's file (so it is `Codable`), shown at once by every list, detail
/// and paged list holding the element, and sent, now or after a relaunch.
///
/// ```swift
/// struct Rename: Mutation {
///     let id: Contact.ID
///     let phone: String
///
///     var elementID: Contact.ID { id }
///     func apply(to contact: inout Contact) { contact.phone = phone }
///     func send(using client: APIClient, context: MutationContext<Contact>) async throws -> MutationResult<Contact> {
///         let url = URL(string: "https://api.example.com/contacts/\(id)")!
///         let response = try await client.send(
///             .put(url, body: context.edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
///         return MutationResult(
///             value: try client.decode(Contact.self, from: response.body, url: url), entityTag: response.validators.entityTag)
///     }
/// }
/// ```
///
/// The mutations of one element (or of one ``scope``) are sent one at a time, in the order they
/// were performed; those of different elements and scopes are sent side by side.
public protocol Mutation<Element, Environment>: Codable, Sendable {
    /// The type of the element it edits.
    associatedtype Element: Identifiable & Codable & Sendable where Element.ID: CacheKey
    /// What ``send(using:context:)`` sends with (an `APIClient`, say): the outbox's.
    associatedtype Environment: Sendable

    /// The name the mutation is stored under, which finds its type again after a relaunch.
    /// Defaults to the type's name; keep the old name when you rename the type.
    static var mutationName: String { get }

    /// The element it edits.
    var elementID: Element.ID { get }

    /// The edit: applied to the element as the server last gave it, after the mutations
    /// performed before it, until the server confirms it. It must depend only on its own
    /// stored properties and `element`.
    func apply(to element: inout Element)

    /// Sends the edit to the server.
    ///
    /// - Returns: The server's answer (``MutationResult``), which becomes the element's server
    ///   value (when the store holds the element; see ``MutationContext/edited``).
    /// - Throws: An error that is transient (a `RetryableError` saying so, such as an
    ///   `APIError` for a lost connection or a 503) keeps the mutation to be sent again later,
    ///   with the same idempotency key. A conflict (a `WriteConflictError` that is one, such
    ///   as `APIError.conflict` for a `412` or `409`) goes to ``resolve(_:)``. Any other error
    ///   rejects it: it is rolled back, alone.
    func send(using environment: Environment, context: MutationContext<Element>) async throws
        -> MutationResult<Element>

    /// What to do when the server refuses the mutation because the element changed since the
    /// copy it edits. Defaults to ``ConflictResolution/serverWins``.
    func resolve(_ conflict: MutationConflict<Element>) -> ConflictResolution

    /// The value to send again when ``resolve(_:)`` says ``ConflictResolution/merge``: what
    /// the user meant (`conflict.local`) and what the server holds now (`conflict.server`),
    /// combined as the app decides; `nil` lets the server's value stay (the mutation is rolled
    /// back). It is sent with the server's entity tag, and the server's answer becomes the
    /// element's server value. Defaults to the mutation applied over the server's value, as
    /// ``ConflictResolution/clientWins`` sends it.
    ///
    /// ```swift
    /// func resolve(_ conflict: MutationConflict<Note>) -> ConflictResolution { .merge }
    /// func merge(_ conflict: MutationConflict<Note>) -> Note? {
    ///     guard var note = conflict.server else { return conflict.local }
    ///     note.tags.formUnion(conflict.local?.tags ?? [])   // both sides' tags
    ///     return note
    /// }
    /// ```
    func merge(_ conflict: MutationConflict<Element>) -> Element?

    /// The mutations sent one at a time with it, in the order performed, beyond its element's:
    /// every mutation with the same scope, whatever element it edits (a contact and its
    /// address book, say, that the server must get in order). Mutations of one element are
    /// always sent in order; different elements and scopes go side by side. Defaults to `nil`:
    /// its element's alone.
    var scope: String? { get }

    /// Prefixes of the keys (their ``CacheKey/persistentKey``) that the server's side of the
    /// edit may change beyond the element itself, such as a search or a sorted list: when the
    /// server confirms it, every key of a repository over the store that starts with one of
    /// them is invalidated (``KeyedRepository/invalidate(keysWithPrefix:)``), so its readers
    /// fetch it again. Defaults to none: the element's own lists and details show the answer.
    var invalidatedKeyPrefixes: [String] { get }
}

extension Mutation {
    /// The type's name, as `String(reflecting:)` gives it, without the address the runtime
    /// prints for a type declared `private` or inside a function, which changes at every launch
    /// (`App.(private).Rename`). Two such types of one name in one module have one name: give
    /// one a name of its own.
    public static var mutationName: String { storedTypeName(Self.self) }

    /// The server wins.
    public func resolve(_ conflict: MutationConflict<Element>) -> ConflictResolution { .serverWins }

    /// The mutation applied over the server's value.
    public func merge(_ conflict: MutationConflict<Element>) -> Element? { appliedOverServer(conflict) }

    /// The mutation applied over the server's value in `conflict` (the copy the store held,
    /// edited, when the server sent none): what ``ConflictResolution/clientWins`` sends.
    func appliedOverServer(_ conflict: MutationConflict<Element>) -> Element? {
        conflict.server.map(applied(to:)) ?? conflict.local
    }

    /// `element` with the mutation applied.
    func applied(to element: Element) -> Element {
        var edited = element
        apply(to: &edited)
        return edited
    }

    /// None.
    public var invalidatedKeyPrefixes: [String] { [] }

    /// None: its element's mutations alone.
    public var scope: String? { nil }
}
