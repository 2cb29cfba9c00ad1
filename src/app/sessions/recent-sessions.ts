/** How many recent sessions the shell loads (and reads early, before Angular boots). */
export const RECENT_SESSIONS = 200;
