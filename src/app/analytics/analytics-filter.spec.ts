import {
  EMPTY_FILTER,
  FilterState,
  filterFromParams,
  filterToParams,
  filterToQuery,
  isFiltered,
  periodProblem,
} from './analytics-filter';

/** What the router keeps of merged params: nulls drop out. */
function inUrl(state: FilterState): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filterToParams(state)).filter(([, v]) => v !== null),
  ) as Record<string, string>;
}

describe('analytics filter ⇄ URL', () => {
  it('leaves a default filter out of the URL', () => {
    expect(inUrl(EMPTY_FILTER)).toEqual({});
    expect(filterFromParams({})).toEqual(EMPTY_FILTER);
  });

  it('round-trips every field', () => {
    const state: FilterState = {
      agent: ['claude'],
      model: ['claude-sonnet-4-5', 'claude-opus-4-5'],
      tool: ['Bash'],
      subscription: ['demo'],
      app: ['alpha', 'beta'],
      caller: ['key_a'],
      period: 'custom',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-02T12:30:00.000Z',
      error: 'yes',
      origin: 'relais',
    };
    const params = inUrl(state);
    expect(params).toEqual({
      agent: 'claude',
      model: 'claude-sonnet-4-5,claude-opus-4-5',
      tool: 'Bash',
      subscription: 'demo',
      app: 'alpha,beta',
      caller: 'key_a',
      period: 'custom',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-02T12:30:00.000Z',
      error: 'yes',
      origin: 'relais',
    });
    expect(filterFromParams(params)).toEqual(state);
  });

  it('round-trips a preset period and drops from/to that only a custom period uses', () => {
    const state: FilterState = { ...EMPTY_FILTER, period: '7d', error: 'no' };
    expect(filterFromParams(inUrl(state))).toEqual(state);
    expect(filterFromParams({ period: '24h', from: '2026-11-01T00:00:00Z' })).toEqual({
      ...EMPTY_FILTER,
      period: '24h',
    });
  });

  it('removes a cleared field from the URL (null when merged)', () => {
    expect(filterToParams(EMPTY_FILTER)).toMatchObject({
      model: null,
      app: null,
      period: null,
      error: null,
      from: null,
      to: null,
    });
  });

  it('falls back to defaults on malformed params and trims lists', () => {
    expect(
      filterFromParams({
        period: 'forever',
        error: 'maybe',
        origin: 'mars',
        model: ' a , ,b,a ',
        from: 'not a date',
      }),
    ).toEqual({
      ...EMPTY_FILTER,
      model: ['a', 'b'],
    });
    expect(filterFromParams({ period: 'custom', from: 'nope' })).toEqual({
      ...EMPTY_FILTER,
      period: 'custom',
    });
  });

  it('resolves a preset period once, against the given clock', () => {
    const now = Date.parse('2026-11-30T10:00:00.000Z');
    expect(
      filterToQuery({ ...EMPTY_FILTER, period: '24h', app: ['a', 'b'], error: 'yes' }, now),
    ).toEqual({
      app: 'a,b',
      error: 'yes',
      from: '2026-11-29T10:00:00.000Z',
      to: '2026-11-30T10:00:00.000Z',
    });
    expect(filterToQuery({ ...EMPTY_FILTER, period: 'all' }, now)).toEqual({});
  });

  it('excludes imported turns by origin, not by listing the apps seen so far', () => {
    const excluded: FilterState = { ...EMPTY_FILTER, period: 'all', origin: 'relais' };
    expect(filterToQuery(excluded, 0)).toEqual({ origin: 'relais' });
    expect(filterToQuery({ ...excluded, origin: 'imported' }, 0)).toEqual({ origin: 'imported' });
    expect(isFiltered({ ...EMPTY_FILTER, origin: 'relais' })).toBe(true);
  });

  it('says when a custom period is backwards, and what counts as filtered', () => {
    const backwards: FilterState = {
      ...EMPTY_FILTER,
      period: 'custom',
      from: '2026-11-02T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
    };
    expect(periodProblem(backwards)).toMatch(/before its end/);
    expect(periodProblem(EMPTY_FILTER)).toBeNull();
    expect(isFiltered(EMPTY_FILTER)).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, tool: ['Bash'] })).toBe(true);
  });

  it('carries the caller keys through the URL to the daemon', () => {
    const state = filterFromParams({ caller: 'key_a,key_b,key_a' });
    expect(state.caller).toEqual(['key_a', 'key_b']);
    expect(isFiltered(state)).toBe(true);
    expect(filterToParams(state)['caller']).toBe('key_a,key_b');
    expect(filterToQuery(state, Date.parse('2026-12-04T00:00:00Z'))['caller']).toBe('key_a,key_b');
    expect(filterToParams(EMPTY_FILTER)['caller']).toBeNull();
  });
});
