// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "falls",
  products: [
    .library(name: "FallsCore", targets: ["FallsCore"]),
    .library(name: "FallsFeed", targets: ["FallsFeed"]),
    .executable(name: "falls", targets: ["falls"]),
    .executable(name: "falls-bench", targets: ["FallsBench"]),
  ],
  dependencies: [],
  targets: [
    // Memory a value owns, freed when the value ends: the one home of raw allocations, for the
    // engine and the tool alike. Pure Swift.
    .target(name: "FallsMemory"),
    // The layout engine: pure Swift, no Foundation, no I/O; of the C library only madvise, a hint
    // that large element arrays want huge pages (HugePages.swift).
    .target(name: "FallsCore", dependencies: ["FallsMemory"]),
    // What the feed and the command line share: system errors, decimal numbers, text made safe
    // to show.
    .target(name: "FallsBase", dependencies: ["FallsMemory"]),
    // libcurl's easy interface, loaded at run time: falls builds without its headers.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
    // fstatfs, which Swift's Glibc module does not declare, and the SIGBUS handler's atomic flag.
    .target(name: "CFileSystem"),
    // The finderlist feed: decoding and reading.
    .target(
      name: "FallsFeed",
      dependencies: ["FallsCore", "FallsBase", "FallsMemory", "CCurl", "CFileSystem"]),
    // Raw mode, keys and escape sequences for `falls view`: termios and ANSI, no curses.
    .target(name: "FallsTerminal", dependencies: ["FallsBase", "FallsMemory"]),
    // Arguments, subcommands, output formats, errors to exit codes. Never exits.
    .target(
      name: "FallsCLI",
      dependencies: ["FallsCore", "FallsBase", "FallsFeed", "FallsTerminal"]),
    .executableTarget(name: "falls", dependencies: ["FallsCLI"]),
    // The benchmark (make bench) and its C reference loop.
    .target(name: "CWaterfallReference", path: "Benchmarks/CReference"),
    .executableTarget(
      name: "FallsBench",
      dependencies: ["FallsCore", "FallsFeed", "FallsCLI", "CWaterfallReference"],
      path: "Benchmarks/FallsBench"),
    // Shared by the test targets, in layers. The checkers: independent rule checkers and
    // generated items, on FallsCore alone (no Foundation).
    .target(name: "FallsCheckers", dependencies: ["FallsCore"], path: "Tests/FallsCheckers"),
    // The fixtures: the feeds of Tests/Fixtures, read by FallsFeed, and the repository's
    // documents.
    .target(
      name: "FallsFixtures", dependencies: ["FallsCore", "FallsFeed"],
      path: "Tests/FallsFixtures"),
    // Processes, servers and screenshots, for the feed and command-line tests.
    .target(
      name: "FallsTestSupport",
      dependencies: ["FallsCore", "FallsBase", "FallsFeed", "FallsCheckers", "FallsFixtures"],
      path: "Tests/FallsTestSupport"),
    .testTarget(
      name: "FallsCoreTests", dependencies: ["FallsCore", "FallsCheckers", "FallsFixtures"]),
    .testTarget(name: "FallsBaseTests", dependencies: ["FallsBase", "FallsCore", "FallsMemory"]),
    .testTarget(
      name: "FallsFeedTests",
      dependencies: ["FallsFeed", "FallsCheckers", "FallsFixtures", "FallsTestSupport"]),
    .testTarget(name: "FallsTerminalTests", dependencies: ["FallsTerminal"]),
    .testTarget(
      name: "FallsCLITests",
      dependencies: [
        "FallsCLI", "FallsCore", "FallsBase", "FallsFeed", "FallsCheckers", "FallsFixtures",
        "FallsTestSupport",
      ]),
  ]
)
