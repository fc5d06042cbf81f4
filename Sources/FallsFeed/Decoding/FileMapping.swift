import CFileSystem
import FallsBase
import FallsMemory
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private, read-only mapping of a whole file, unmapped when the last reference goes.
///
/// While it lives, a SIGBUS from reading it (the file was cut short under it) is caught: the
/// handler maps zeros over the rest of the mapping and notes the fault, so that the read goes on
/// and ``hasChanged`` turns true.
///
/// `@unchecked Sendable`: a raw pointer is not Sendable; every property is a constant and the
/// mapping is read-only, so threads only ever read it.
final class FileMapping: @unchecked Sendable {
  /// The mapped bytes; read-only (the mapping is `PROT_READ`).
  let base: UnsafeMutableRawPointer
  let count: Int
  /// The file's path, for messages.
  let path: String
  /// This mapping's slot in the table the SIGBUS handler reads.
  private let slot: Int
  /// A descriptor of the mapped file of the mapping's own, to look at its size however it was
  /// opened (standard input has no path to look at).
  private let descriptor: Int32

  /// Maps `count` bytes of `descriptor`, or `nil` when it cannot (no mapping, no free slot).
  init?(descriptor: Int32, count: Int, path: String) {
    let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
    guard own >= 0 else { return nil }
    guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    else {
      close(own)
      return nil
    }
    guard let slot = BusErrorGuard.claim(start: address, count: count) else {
      munmap(address, count)
      close(own)
      return nil
    }
    base = address
    self.count = count
    self.path = path
    self.slot = slot
    self.descriptor = own
  }

  /// Whether the file changed since it was mapped: a read went past its end, or its size is
  /// not what was mapped (a file cut short within its last page reads as zeros there, without
  /// a fault).
  var hasChanged: Bool {
    var status = stat()
    return BusErrorGuard.hasFaulted(slot) || fstat(descriptor, &status) != 0
      || Int(status.st_size) != count
  }

  deinit {
    BusErrorGuard.release(slot)
    munmap(base, count)
    close(descriptor)
  }
}

/// The table of live mappings that the SIGBUS handler consults.
///
/// Slots are claimed and released under a lock; the handler only reads them (and sets a slot's
/// fault flag), with async-signal-safe calls: `mmap` and `signal`. The table is made, and the
/// handler installed, with the first mapping; neither is ever taken back.
///
/// `@unchecked Sendable`: the table is raw memory that the handler reads; every write to it is
/// made under ``lock``.
final class BusErrorGuard: @unchecked Sendable {
  struct Slot {
    /// The first address of the mapping, or 0 for a free slot.
    var start: UInt
    /// The address just past the mapping's last page.
    var end: UInt
    /// Set by the handler when a read of the mapping faulted.
    var faulted: Int
  }

  static let slotCount = 64
  private static let shared = BusErrorGuard()

  private let table = OwnedMemory(repeating: Slot(start: 0, end: 0, faulted: 0), count: slotCount)
  private var slots: UnsafeMutablePointer<Slot> { table.pointer }
  private let lock = NSLock()
  private let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

  private init() {
    guardPageSize = pageSize
    guardSlots = slots
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = handleBusError
    action.sa_flags = SA_SIGINFO | SA_NODEFER
    sigemptyset(&action.sa_mask)
    sigaction(SIGBUS, &action, nil)
  }

  /// A free slot for the mapping at `start`, or `nil` when all are taken.
  static func claim(start: UnsafeMutableRawPointer, count: Int) -> Int? {
    let table = shared
    return table.lock.withLock {
      guard let free = (0..<slotCount).first(where: { table.slots[$0].start == 0 }) else {
        return nil
      }
      let first = UInt(bitPattern: start)
      let end = (first + UInt(count) + table.pageSize - 1) / table.pageSize * table.pageSize
      table.slots[free].faulted = 0
      table.slots[free].end = end
      // Set last: a slot with a start is whole for the handler.
      table.slots[free].start = first
      return free
    }
  }

  static func hasFaulted(_ slot: Int) -> Bool {
    shared.lock.withLock { falls_flag_get(&shared.slots[slot].faulted) != 0 }
  }

  static func release(_ slot: Int) {
    shared.lock.withLock { shared.slots[slot] = Slot(start: 0, end: 0, faulted: 0) }
  }
}

/// The table as the signal handler sees it, and the page size; set once, before the handler is
/// installed.
nonisolated(unsafe) private var guardSlots: UnsafeMutablePointer<BusErrorGuard.Slot>?
nonisolated(unsafe) private var guardPageSize: UInt = 4096

/// SIGBUS: when the faulting address lies in a live mapping, zeros are mapped over the rest of
/// it and the fault is noted, and the faulting read is tried again (and now reads a zero).
/// Any other SIGBUS is the process's: the default action is put back and the fault repeats.
private func handleBusError(
  _ signalNumber: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
  _ context: UnsafeMutableRawPointer?
) {
  if let slots = guardSlots, let info {
    let address = UInt(bitPattern: info.pointee._sifields._sigfault.si_addr)
    let page = guardPageSize
    for index in 0..<BusErrorGuard.slotCount
    where slots[index].start != 0 && slots[index].start <= address && address < slots[index].end {
      let first = address / page * page
      let zeros = mmap(
        UnsafeMutableRawPointer(bitPattern: first), Int(slots[index].end - first), PROT_READ,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
      if zeros != MAP_FAILED {
        // Atomically: the halves of a parse may fault on one mapping at once.
        falls_flag_set(&slots[index].faulted)
        return
      }
    }
  }
  signal(SIGBUS, SIG_DFL)
}
