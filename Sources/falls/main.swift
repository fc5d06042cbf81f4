import FallsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// First, before the runtime opens a file that could take the number of a closed one.
let closed = CLIEnvironment.claimStandardDescriptors()
// A closed pipe shows up as EPIPE from write(2), which the CLI turns into a quiet exit.
signal(SIGPIPE, SIG_IGN)
let status = await CLI.run(
  Array(CommandLine.arguments.dropFirst()), environment: .process(closed: closed))
exit(status.rawValue)
