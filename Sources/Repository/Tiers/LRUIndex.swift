/// Least-recently-used order over keys, with O(1) touch, insert, remove and eviction.
///
/// A doubly linked list threaded through an array (free slots reused), plus a dictionary
/// from key to slot. Pure and single-threaded: ``MemoryCache`` guards it with a lock.
@usableFromInline struct LRUIndex<Key: Hashable, Value> {
    @usableFromInline struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int?
        @usableFromInline var older: Int?
    }

    @usableFromInline var nodes: [Node?] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var newest: Int?
    @usableFromInline var oldest: Int?

    /// How many entries it holds.
    var count: Int { slots.count }
    /// The sum of the entries' costs.
    @usableFromInline private(set) var totalCost = 0

    /// The value for `key`, made the most recently used.
    @inlinable mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot]!.value
    }

    /// Inserts or replaces the value for `key` as the most recently used.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        if let slot = slots[key] {
            totalCost += cost - nodes[slot]!.cost
            nodes[slot]!.value = value
            nodes[slot]!.cost = cost
            moveToNewest(slot)
            return
        }
        let node = Node(key: key, value: value, cost: cost, newer: nil, older: newest)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if let newest { nodes[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
    }

    /// Runs `body` on the value for `key` in place, made the most recently used; `nil` when
    /// there is none.
    mutating func modify<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let slot = slots[key] else { return nil }
        moveToNewest(slot)
        return body(&nodes[slot]!.value)
    }

    /// Sets the cost of the entry for `key`, if there is one.
    mutating func setCost(_ cost: Int, for key: Key) {
        guard let slot = slots[key] else { return }
        totalCost += cost - nodes[slot]!.cost
        nodes[slot]!.cost = cost
    }

    /// Removes the value for `key`; returns it.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        let node = unlink(slot)
        nodes[slot] = nil
        free.append(slot)
        totalCost -= node.cost
        return node.value
    }

    /// Removes the least recently used entry; returns its key.
    @discardableResult
    mutating func removeOldest() -> Key? {
        guard let oldest, let key = nodes[oldest]?.key else { return nil }
        remove(key)
        return key
    }

    /// Removes the least recently used entries until at most `countLimit` are left, costing
    /// at most `costLimit` in all.
    mutating func evict(countLimit: Int, costLimit: Int) {
        while count > countLimit || totalCost > costLimit { removeOldest() }
    }

    /// The value for `key`, leaving the order as it is.
    func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0]?.value }
    }

    /// Removes everything.
    mutating func removeAll() {
        self = LRUIndex()
    }

    /// The keys, most recently used first (for tests).
    var keysNewestFirst: [Key] {
        var keys: [Key] = []
        var slot = newest
        while let current = slot, let node = nodes[current] {
            keys.append(node.key)
            slot = node.older
        }
        return keys
    }

    @inlinable mutating func moveToNewest(_ slot: Int) {
        guard newest != slot else { return }
        var node = unlink(slot)
        node.older = newest
        node.newer = nil
        nodes[slot] = node
        if let newest { nodes[newest]!.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    /// Takes `slot` out of the list (its node stays in place) and returns the node.
    @inlinable mutating func unlink(_ slot: Int) -> Node {
        let node = nodes[slot]!
        if let newer = node.newer { nodes[newer]!.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]!.newer = node.newer } else { oldest = node.newer }
        return node
    }
}
