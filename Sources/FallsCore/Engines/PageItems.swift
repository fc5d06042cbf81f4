/// The items of one append, as an engine reads them: an array, or generated items made as they
/// are read, so that a page of a million generated items is never held whole.
///
/// The engines read them once, in order (the flat end reads the last page again): any sequence
/// does, and each case is compiled as a loop of its own.
enum PageItems: Sendable {
  case array([LayoutItem])
  case generated(SyntheticFeed.Items)

  var count: Int {
    switch self {
    case .array(let items): items.count
    case .generated(let items): items.count
    }
  }
}
