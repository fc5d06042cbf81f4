// What the fuzz targets share: scripts/fuzz.sh compiles this folder into each of them.

import Dispatch
import FallsCLI
import Synchronization

/// Runs `falls` in-process with `arguments` in `environment`, this thread waiting for it (a
/// fuzz target's entry point is synchronous): its exit status, or `nil` if it gave none.
func runInProcess(_ arguments: [String], environment: CLIEnvironment) -> ExitCode? {
  let done = DispatchSemaphore(value: 0)
  let result = Mutex<ExitCode?>(nil)
  Task {
    let code = await CLI.run(arguments, environment: environment)
    result.withLock { $0 = code }
    done.signal()
  }
  done.wait()
  return result.withLock { $0 }
}
