/** Marks every process of a session (any agent) so that leftovers can be found after a crash. */
export const SESSION_TAG_VAR = 'RELAIS_AGENT_SESSION';
