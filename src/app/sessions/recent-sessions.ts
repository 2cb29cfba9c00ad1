// Spelled once, in core (the shell's early read before Angular boots uses it too).
export { RECENT_SESSIONS } from '../core/early-reads';
