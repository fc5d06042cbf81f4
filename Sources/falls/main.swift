import FallsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A closed pipe shows up as EPIPE from write(2), which the CLI turns into a quiet exit.
signal(SIGPIPE, SIG_IGN)
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()), environment: .process())
exit(status.rawValue)
