// The first reads are spelled once, in core (the early reads before Angular boots use them too).
export { EVENT_CLIP, FIRST_PAGE, PAGE } from '../core/early-reads';
