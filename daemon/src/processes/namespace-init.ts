/**
 * PID 1 of a session's PID namespace, in POSIX sh so that it needs nothing more than the machine has.
 * It runs the agent as a plain foreground child (the agent keeps the daemon's stdio pipes and default
 * signal handling: PID 1 would ignore every signal it has no handler for), reaps whatever is re-parented
 * to it while it waits, and, once the agent is gone, gives what the agent left SIGTERM and a moment to
 * clean up. When it exits, the kernel kills everything still in the namespace.
 *
 * Arguments: `$1` = how many 50 ms steps to wait after the SIGTERM, then the agent's argv.
 */
export const NAMESPACE_INIT = [
  // `kill -1` below signals every process the caller can see: only ever from inside a fresh namespace.
  '[ "$$" = 1 ] || { echo "relais: the session init must be PID 1 of its own namespace" >&2; exit 125; }',
  'steps=$1',
  'shift',
  '"$@"',
  'status=$?',
  'kill -TERM -1 2>/dev/null',
  'n=0',
  'while [ "$n" -lt "$steps" ] && kill -0 -1 2>/dev/null; do sleep 0.05; n=$((n + 1)); done',
  'exit "$status"',
].join('\n');

/** The name the init shows in `ps` (its `$0`). */
export const NAMESPACE_INIT_NAME = 'relais-session-init';
