/** Events asked for at once when a conversation opens, and per page when scrolling up. */
export const PAGE = 120;
