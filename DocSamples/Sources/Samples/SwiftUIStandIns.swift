// Stand-ins for the few SwiftUI names the samples use, so that on Linux (no SwiftUI) the
// samples' use of the kit is still type-checked. On Apple platforms the samples use SwiftUI.
#if !canImport(SwiftUI)
    @MainActor @preconcurrency public protocol View {
        associatedtype Body: View
        @ViewBuilder var body: Body { get }
    }

    public struct Never_: View {
        nonisolated public init() {}
        public var body: Never_ { return self } }

    extension View where Body == Never_ {
        public var body: Never_ { return Never_() }
    }

    public struct AnyContent: View {
        public typealias Body = Never_
        nonisolated init() {}
    }

    @resultBuilder public enum ViewBuilder {
        public static func buildBlock(_ views: any View...) -> AnyContent { AnyContent() }
        public static func buildOptional(_ view: (any View)?) -> AnyContent { AnyContent() }
        public static func buildEither(first view: any View) -> AnyContent { AnyContent() }
        public static func buildEither(second view: any View) -> AnyContent { AnyContent() }
    }

    @propertyWrapper public struct State<Value> {
        public var wrappedValue: Value
        public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    }

    public enum Alignment { case top }
    public struct Color: Sendable { public static let orange = Color() }

    extension View {
        public func overlay(alignment: Alignment = .top, @ViewBuilder _ content: () -> some View) -> AnyContent {
            AnyContent()
        }
        public func refreshable(@_inheritActorContext action: @escaping @isolated(any) @Sendable () async -> Void) -> AnyContent { AnyContent() }
        public func task(@_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void) -> AnyContent { AnyContent() }
        public func onAppear(perform action: (() -> Void)? = nil) -> AnyContent { AnyContent() }
        public func onDisappear(perform action: (() -> Void)? = nil) -> AnyContent { AnyContent() }
        public func foregroundStyle(_ color: Color) -> AnyContent { AnyContent() }
        public func disabled(_ disabled: Bool) -> AnyContent { AnyContent() }
        public func alert<T>(
            _ title: String, isPresented: Binding<Bool>, presenting data: T?,
            @ViewBuilder actions: (T) -> some View, @ViewBuilder message: (T) -> some View
        ) -> AnyContent { AnyContent() }
        public func alert(
            _ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> some View,
            @ViewBuilder message: () -> some View
        ) -> AnyContent { AnyContent() }
    }

    public struct List: View {
        public typealias Body = Never_
        public init<Data: RandomAccessCollection>(_ data: Data, @ViewBuilder rowContent: (Data.Element) -> some View) {}
        public init(@ViewBuilder content: () -> some View) {}
    }
    public struct ForEach: View {
        public typealias Body = Never_
        public init<Data: RandomAccessCollection>(_ data: Data, @ViewBuilder content: (Data.Element) -> some View) {}
        public init<Data: RandomAccessCollection, ID: Hashable>(
            _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: (Data.Element) -> some View
        ) {}
    }
    public struct Binding<Value> {
        public static func constant(_ value: Value) -> Binding { Binding() }
    }
    public struct VStack: View {
        public typealias Body = Never_
        public init(@ViewBuilder content: () -> some View) {}
    }
    public struct HStack: View {
        public typealias Body = Never_
        public init(@ViewBuilder content: () -> some View) {}
    }
    public struct Text: View {
        public typealias Body = Never_
        public init(_ text: String) {}
    }
    public struct Label: View {
        public typealias Body = Never_
        public init(_ title: String, systemImage: String) {}
    }
    public struct Button: View {
        public typealias Body = Never_
        public init(_ title: String, action: @escaping () -> Void) {}
    }
    public struct ProgressView: View {
        public typealias Body = Never_
        public init() {}
    }
    public struct EmptyView: View {
        public typealias Body = Never_
        public init() {}
    }
    public struct Spacer: View {
        public typealias Body = Never_
        public init() {}
    }
    public struct ContentUnavailableView: View {
        public typealias Body = Never_
        public init(_ title: String, systemImage: String) {}
    }
#endif
