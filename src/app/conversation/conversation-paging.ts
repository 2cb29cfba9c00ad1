/** Events asked for at once when a conversation opens, and per page when scrolling up. */
export const PAGE = 120;

/**
 * Texts of an event longer than this come cut from the daemon (a file read weighs more than a
 * hundred messages); the row that shows one offers to read its event whole. Longer than any
 * preview a row shows before its "Show" button.
 */
export const EVENT_CLIP = 8000;

/** The first read of a conversation, as its early read (before Angular boots) spells it too. */
export const FIRST_PAGE = { limit: PAGE, clip: EVENT_CLIP } as const;
