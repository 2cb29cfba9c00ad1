import type { QueryChange, QueryParams } from '../core/routing/url';

/** The filter of the Analytics page; it lives in the URL query (shareable, back button works). */
export interface FilterState {
  agent: string[];
  model: string[];
  tool: string[];
  subscription: string[];
  app: string[];
  /** Ids of the caller keys that launched the sessions. */
  caller: string[];
  period: Period;
  /** ISO times, used only when `period` is `custom`. */
  from: string | null;
  to: string | null;
  error: '' | 'yes' | 'no';
  /** relais: imported turns left out (whatever apps appear later); imported: only them. */
  origin: '' | 'relais' | 'imported';
}

export const LIST_KEYS = ['agent', 'model', 'tool', 'subscription', 'app'] as const;
export type ListKey = (typeof LIST_KEYS)[number];

export const PERIODS = [
  { value: '24h', label: $localize`Last 24 hours`, ms: 86_400_000 },
  { value: '7d', label: $localize`Last 7 days`, ms: 7 * 86_400_000 },
  { value: '30d', label: $localize`Last 30 days`, ms: 30 * 86_400_000 },
  { value: '90d', label: $localize`Last 90 days`, ms: 90 * 86_400_000 },
  { value: 'all', label: $localize`All time`, ms: null },
  { value: 'custom', label: $localize`Custom…`, ms: null },
] as const;
export type Period = (typeof PERIODS)[number]['value'];
export const DEFAULT_PERIOD: Period = '30d';

export const EMPTY_FILTER: FilterState = {
  agent: [],
  model: [],
  tool: [],
  subscription: [],
  app: [],
  caller: [],
  period: DEFAULT_PERIOD,
  from: null,
  to: null,
  error: '',
  origin: '',
};

function single(value: unknown): string | null {
  if (Array.isArray(value)) return single(value[0]);
  return typeof value === 'string' && value !== '' ? value : null;
}

function list(value: unknown): string[] {
  const text = single(value);
  if (text === null) return [];
  return [
    ...new Set(
      text
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

function instant(value: unknown): string | null {
  const text = single(value);
  return text !== null && Number.isFinite(Date.parse(text)) ? new Date(text).toISOString() : null;
}

/** Reads the filter from query params; anything unknown or malformed falls back to the default. */
export function filterFromParams(params: QueryParams | QueryChange): FilterState {
  const periodText = single(params['period']);
  const period = PERIODS.find((p) => p.value === periodText)?.value ?? DEFAULT_PERIOD;
  const errorText = single(params['error']);
  const originText = single(params['origin']);
  const state: FilterState = {
    agent: list(params['agent']),
    model: list(params['model']),
    tool: list(params['tool']),
    subscription: list(params['subscription']),
    app: list(params['app']),
    caller: list(params['caller']),
    period,
    from: period === 'custom' ? instant(params['from']) : null,
    to: period === 'custom' ? instant(params['to']) : null,
    error: errorText === 'yes' || errorText === 'no' ? errorText : '',
    origin: originText === 'relais' || originText === 'imported' ? originText : '',
  };
  return state;
}

/**
 * Writes the filter as query params: every key is present (null removes it from the URL when
 * merged), defaults are left out so that a plain /analytics stays plain.
 */
export function filterToParams(state: FilterState): QueryChange {
  const params: Record<string, string | null> = {};
  for (const key of LIST_KEYS) params[key] = state[key].length > 0 ? state[key].join(',') : null;
  params['caller'] = state.caller.length > 0 ? state.caller.join(',') : null;
  params['period'] = state.period === DEFAULT_PERIOD ? null : state.period;
  params['from'] = state.period === 'custom' ? state.from : null;
  params['to'] = state.period === 'custom' ? state.to : null;
  params['error'] = state.error || null;
  params['origin'] = state.origin || null;
  return params;
}

/**
 * The query the daemon receives. A preset period is resolved against `nowMs` once, so that every
 * figure, chart and the export of one view cover exactly the same span.
 */
export function filterToQuery(state: FilterState, nowMs: number): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of LIST_KEYS) if (state[key].length > 0) query[key] = state[key].join(',');
  if (state.caller.length > 0) query['caller'] = state.caller.join(',');
  const preset = PERIODS.find((p) => p.value === state.period);
  if (preset?.ms) {
    query['from'] = new Date(nowMs - preset.ms).toISOString();
    query['to'] = new Date(nowMs).toISOString();
  } else if (state.period === 'custom') {
    if (state.from) query['from'] = state.from;
    if (state.to) query['to'] = state.to;
  }
  if (state.error) query['error'] = state.error;
  if (state.origin) query['origin'] = state.origin;
  return query;
}

/** Whether anything narrows the scope beyond the default period. */
export function isFiltered(state: FilterState): boolean {
  return (
    LIST_KEYS.some((key) => state[key].length > 0) ||
    state.caller.length > 0 ||
    state.error !== '' ||
    state.origin !== '' ||
    state.period !== DEFAULT_PERIOD
  );
}

/** A custom period whose start is not before its end: the daemon would refuse it. */
export function periodProblem(state: FilterState): string | null {
  if (state.period !== 'custom' || !state.from || !state.to) return null;
  return Date.parse(state.from) >= Date.parse(state.to)
    ? $localize`The start of the period must be before its end.`
    : null;
}
