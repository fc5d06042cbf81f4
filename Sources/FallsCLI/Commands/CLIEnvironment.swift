import FallsBase
import FallsFeed
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What standard input is, which decides whether `falls layout` without a feed reads it.
public enum StandardInputKind: Sendable {
  /// A pipe or a FIFO (`cat feed.json | falls layout`): read as the feed.
  case pipe
  /// A regular file (`falls layout < feed.json`): read as the feed.
  case file
  /// A terminal: what is typed there is not a feed.
  case terminal
  /// Nothing to read: /dev/null, another device or a socket.
  case none
  /// Closed when falls started (`falls layout <&-`).
  case closed
  /// A directory (`falls layout < /tmp`): given as the feed, which then cannot be read (66),
  /// rather than passed over for the built-in feed.
  case directory

  /// Whether, with no feed given, standard input is the feed, as jq and ripgrep read it.
  public var holdsFeed: Bool { self == .pipe || self == .file || self == .directory }
}

/// The process's surroundings as the CLI sees them: its input, its two output streams, whether
/// standard error is a terminal, and the network.
public struct CLIEnvironment {
  /// Reads all of standard input, or throws ``FeedError/tooLarge(path:limit:)`` as soon as it
  /// gives more than `maxBytes`; a regular file (`falls layout < feed.json`) is read whatever
  /// its size unless `limitsRegularFile` (``FeedReader/load(descriptor:path:maxBytes:limitsRegularFile:)``).
  public var readStandardInput:
    (_ maxBytes: Int, _ limitsRegularFile: Bool) throws(FeedError) -> FeedBytes
  /// What standard input is.
  public var standardInputKind: StandardInputKind
  /// Whether standard output was closed when falls started: nothing it prints can go anywhere.
  public var standardOutputIsClosed: Bool
  /// Standard output: results only.
  public var standardOutput: any ByteSink
  /// Standard error: messages, notes, errors and progress.
  public var standardError: any ByteSink
  /// Whether standard error is a terminal, where progress is shown.
  public var standardErrorIsTerminal: Bool
  /// The width in columns of the terminal that standard error is, if it is one: a progress
  /// line is cut to it.
  public var standardErrorColumns: Int?
  /// The width in columns of the terminal that standard output is, or `nil` when it is not one
  /// (a pipe, a file): the table is fitted to it.
  public var standardOutputColumns: Int?
  /// The network, for feeds given as URLs.
  public var transport: any HTTPTransport
  /// The first backoff delay between retries, in seconds.
  public var backoff: Double

  /// Creates an environment from its parts.
  public init(
    readStandardInput:
      @escaping (_ maxBytes: Int, _ limitsRegularFile: Bool) throws(FeedError)
      -> FeedBytes,
    standardInputKind: StandardInputKind = .none,
    standardOutputIsClosed: Bool = false,
    standardOutput: any ByteSink,
    standardError: any ByteSink,
    standardErrorIsTerminal: Bool = false,
    standardErrorColumns: Int? = nil,
    standardOutputColumns: Int? = nil,
    transport: any HTTPTransport = CurlTransport(),
    backoff: Double = FetchPolicy().backoff
  ) {
    self.readStandardInput = readStandardInput
    self.standardInputKind = standardInputKind
    self.standardOutputIsClosed = standardOutputIsClosed
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.standardErrorIsTerminal = standardErrorIsTerminal
    self.standardErrorColumns = standardErrorColumns
    self.standardOutputColumns = standardOutputColumns
    self.transport = transport
    self.backoff = backoff
  }

  /// The real process: file descriptors 0, 1 and 2, and URLSession.
  ///
  /// - Parameter closed: The descriptors of 0, 1 and 2 that were closed when the process
  ///   started (``claimStandardDescriptors()``).
  /// - Returns: The environment of this process.
  public static func process(closed: Set<Int32> = []) -> CLIEnvironment {
    CLIEnvironment(
      readStandardInput: { (limit, limitsRegularFile) throws(FeedError) in
        try FeedReader.load(
          descriptor: 0, path: "-", maxBytes: limit, limitsRegularFile: limitsRegularFile)
      },
      standardInputKind: closed.contains(0) ? .closed : standardInputKind(),
      standardOutputIsClosed: closed.contains(1),
      standardOutput: closed.contains(1) ? ClosedSink() : FileDescriptorSink(descriptor: 1),
      standardError: closed.contains(2) ? ClosedSink() : FileDescriptorSink(descriptor: 2),
      standardErrorIsTerminal: isatty(2) == 1, standardErrorColumns: terminalColumns(2),
      standardOutputColumns: terminalColumns(1))
  }

  /// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, and returns those that
  /// were.
  ///
  /// Called first thing, before the runtime opens a descriptor of its own: a closed descriptor
  /// is the lowest free number, so the next file opened takes it, and output meant for a closed
  /// standard output would go into that file (an epoll or event descriptor, where a write fails
  /// with "Invalid argument"). Holding /dev/null there keeps every later file off 0–2.
  public static func claimStandardDescriptors() -> Set<Int32> {
    var closed: Set<Int32> = []
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      closed.insert(descriptor)
      // The lowest free number is this one: those below it are open, or were just claimed.
      let null = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if null >= 0, null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
    }
    return closed
  }

  /// What descriptor 0 is.
  private static func standardInputKind() -> StandardInputKind {
    var status = stat()
    guard fstat(0, &status) == 0 else { return .closed }
    switch status.st_mode & S_IFMT {
    case S_IFIFO: return .pipe
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    case S_IFCHR: return isatty(0) == 1 ? .terminal : .none
    default: return .none
    }
  }
}

extension CLIEnvironment {
  /// Standard input's bytes within `--max-bytes` `limit`, read by ``readStandardInput``: a pipe,
  /// a device or a terminal gives at most `limit` bytes, and a regular file as many as it holds
  /// unless `limitsRegularFile`.
  ///
  /// The limit is held here too, whoever read the bytes (a reader given in tests reads all it
  /// has), so that every command that reads standard input keeps it alike.
  ///
  /// - Throws: ``FeedError/tooLarge(path:limit:)`` past the limit (its path `-`), or
  ///   ``FeedError/unreadable(path:reason:)``.
  func standardInput(atMost limit: Int, limitsRegularFile: Bool) throws(FeedError) -> FeedBytes {
    let bytes = try readStandardInput(limit, limitsRegularFile)
    if !bytes.isFileMapping, bytes.data.count > limit,
      standardInputKind != .file || limitsRegularFile
    {
      throw .tooLarge(path: "-", limit: limit)
    }
    return bytes
  }
}

/// The width of the terminal that `descriptor` is, or `nil` when it is not a terminal.
private func terminalColumns(_ descriptor: Int32) -> Int? {
  guard isatty(descriptor) == 1 else { return nil }
  var window = winsize()
  guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return 80 }
  return Int(window.ws_col)
}
