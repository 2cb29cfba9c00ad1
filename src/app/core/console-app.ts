/** How the daemon's audit names what the console changed (rules changes, launches). */
export const CONSOLE_APP = 'console';
