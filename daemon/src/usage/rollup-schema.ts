/**
 * Rollup tables kept beside `turns` and `tool_calls` (migration 5 creates and backfills them; the
 * turn writer keeps them in step in the same transaction). Frozen once shipped: a change to the SQL
 * below needs a new migration that rebuilds the tables.
 *
 * Each rollup row is one cell of a cuboid: a time slot (`grain` ms wide) × the dimensions of its
 * `kind` (unused dimensions hold ''), × is_error. Low-dimensional cuboids exist so that unfiltered
 * or single-dimension questions read few rows; 'all' serves any combination of filters.
 */
export const FIVE_MINUTES_MS = 300_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const KINDS = ['none', 'subscription', 'agent', 'model', 'app', 'all'] as const;
export type Kind = (typeof KINDS)[number];
export type Dimension = Exclude<Kind, 'none' | 'all'>;
export const DIMENSIONS: readonly Dimension[] = ['subscription', 'agent', 'model', 'app'];

/** Width ratio of two neighbouring duration buckets: a bucket's geometric middle is within √1.04 − 1 < 2 % of any value in it. */
export const HIST_RATIO = 1.04;

export const uses = (kind: Kind, dim: Dimension): boolean => kind === 'all' || kind === dim;

const TURN_COLUMNS: Record<Dimension, string> = {
  subscription: 'subscription_id',
  agent: 'agent',
  model: 'model',
  app: 'app',
};
const ALIASES = ['s', 'a', 'm', 'p'];
const dimsAs = (kind: Kind): string =>
  DIMENSIONS.map((d, k) => `${uses(kind, d) ? TURN_COLUMNS[d] : `''`} AS ${ALIASES[k]}`).join(', ');
const BUCKET = (column: string): string =>
  `CASE WHEN ${column} <= 0 THEN 0 ELSE CAST(floor(ln(${column}) / ln(${HIST_RATIO})) AS INTEGER) + 1 END`;
/** Little-endian uint32 as hex, to build the histogram blob in SQL exactly as histogram.ts encodes it. */
const U32 = (x: string): string =>
  `printf('%02X%02X%02X%02X', (${x}) & 255, ((${x}) >> 8) & 255, ((${x}) >> 16) & 255, ((${x}) >> 24) & 255)`;
const HIST_BLOB = `coalesce(unhex(group_concat(${U32('b')} || ${U32('n')}, '' ORDER BY b)), X'')`;

export const ROLLUP_TABLES_SQL = `
  CREATE TABLE usage_rollup (
    grain INTEGER NOT NULL,
    kind TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    model TEXT NOT NULL,
    app TEXT NOT NULL,
    is_error INTEGER NOT NULL,
    t INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    model_calls INTEGER NOT NULL,
    input INTEGER NOT NULL,
    output INTEGER NOT NULL,
    cache_read INTEGER NOT NULL,
    cache_creation INTEGER NOT NULL,
    cost REAL NOT NULL,
    unknown_cost INTEGER NOT NULL,
    hist BLOB NOT NULL,
    PRIMARY KEY (grain, kind, tool_name, subscription_id, agent, model, app, is_error, t)
  ) WITHOUT ROWID;
  CREATE TABLE usage_sessions (
    kind TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    model TEXT NOT NULL,
    app TEXT NOT NULL,
    is_error INTEGER NOT NULL,
    day INTEGER NOT NULL,
    session_id TEXT NOT NULL,
    prev_day INTEGER,
    PRIMARY KEY (kind, subscription_id, agent, model, app, is_error, session_id, day)
  ) WITHOUT ROWID;
  CREATE INDEX tool_calls_by_tool_time ON tool_calls(tool_name, turn_started_at_ms, session_id, subscription_id, agent, model, app, turn_is_error, turn_id);
  CREATE TABLE usage_tool_rollup (
    kind TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    model TEXT NOT NULL,
    app TEXT NOT NULL,
    is_error INTEGER NOT NULL,
    day INTEGER NOT NULL,
    tool_name TEXT NOT NULL,
    calls INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    denied INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    hist BLOB NOT NULL,
    PRIMARY KEY (kind, subscription_id, agent, model, app, is_error, day, tool_name)
  ) WITHOUT ROWID;
`;

/**
 * Turn figures per cell; with `tool`, the figures of the turns that called each tool (a turn counts
 * once per distinct tool), which answers a filter on one tool.
 */
function turnRollupSql(kind: Kind, grain: number, tool: boolean): string {
  const source = tool
    ? 'turns JOIN (SELECT DISTINCT turn_id, tool_name FROM tool_calls) AS c ON c.turn_id = turns.id'
    : 'turns';
  return `INSERT INTO usage_rollup
    SELECT ${grain}, '${kind}', tn, s, a, m, p, e, t, SUM(n), SUM(mc), SUM(i), SUM(o), SUM(cr), SUM(cc), TOTAL(cost), SUM(u), ${HIST_BLOB}
    FROM (SELECT ${tool ? 'c.tool_name' : `''`} AS tn, ${dimsAs(kind)}, is_error AS e, started_at_ms / ${grain} * ${grain} AS t,
            ${BUCKET('duration_ms')} AS b, COUNT(*) AS n, SUM(model_calls) AS mc, SUM(input_tokens) AS i, SUM(output_tokens) AS o,
            SUM(cache_read_tokens) AS cr, SUM(cache_creation_tokens) AS cc, TOTAL(cost_usd) AS cost, SUM(cost_usd IS NULL) AS u
          FROM ${source} GROUP BY tn, s, a, m, p, e, t, b)
    GROUP BY tn, s, a, m, p, e, t;`;
}

/**
 * Unfiltered series of a week or a month pick 5–30 minute buckets: a 5-minute grain serves them
 * for kind 'none' (more dimensions at that grain would hold about a row per turn).
 */
/** Cuboids kept per tool: few, as each multiplies its rows by the tools a cell's turns called. */
export const TOOL_CUBES: readonly { kind: Kind; grain: number }[] = [
  { kind: 'none', grain: HOUR_MS },
  ...(['none', 'subscription', 'agent', 'model', 'app'] as const).map((kind) => ({
    kind,
    grain: DAY_MS,
  })),
];

/**
 * One row per session × day × cell, with is_error −1 for "either". prev_day (the session's previous
 * day in the same cell) lets a single cell count distinct sessions over days without a DISTINCT.
 */
function sessionsSql(kind: Kind): string {
  const cells = `SELECT DISTINCT ${dimsAs(kind)}, is_error AS e, started_at_ms / ${DAY_MS} * ${DAY_MS} AS d, session_id FROM turns`;
  return `INSERT INTO usage_sessions
    SELECT '${kind}', s, a, m, p, e, d, session_id, LAG(d) OVER (PARTITION BY s, a, m, p, e, session_id ORDER BY d)
    FROM (${cells} UNION SELECT DISTINCT ${dimsAs(kind)}, -1, started_at_ms / ${DAY_MS} * ${DAY_MS}, session_id FROM turns);`;
}

function toolRollupSql(kind: Kind): string {
  const dims = dimsAs(kind);
  const cell = `s, a, m, p, e, d, tool_name`;
  return `INSERT INTO usage_tool_rollup
    SELECT '${kind}', c.s, c.a, c.m, c.p, c.e, c.d, c.tool_name, c.calls, c.errors, c.denied, c.turns, coalesce(h.hist, X'')
    FROM (SELECT ${dims}, turn_is_error AS e, turn_started_at_ms / ${DAY_MS} * ${DAY_MS} AS d, tool_name, COUNT(*) AS calls,
            TOTAL(is_error = 1) AS errors, TOTAL(permission_decision IN ('denied', 'auto_denied')) AS denied, COUNT(DISTINCT turn_id) AS turns
          FROM tool_calls GROUP BY ${cell}) AS c
    LEFT JOIN (SELECT ${cell}, ${HIST_BLOB} AS hist FROM (
        SELECT ${dims}, turn_is_error AS e, turn_started_at_ms / ${DAY_MS} * ${DAY_MS} AS d, tool_name, ${BUCKET('duration_ms')} AS b, COUNT(*) AS n
        FROM tool_calls WHERE duration_ms IS NOT NULL GROUP BY ${cell}, b)
      GROUP BY ${cell}) AS h
    USING (${cell});`;
}

/** Fills the (empty) rollup tables from `turns` and `tool_calls`. */
export const ROLLUP_BACKFILL_SQL = [
  ...KINDS.flatMap((kind) => [
    turnRollupSql(kind, HOUR_MS, false),
    turnRollupSql(kind, DAY_MS, false),
    sessionsSql(kind),
    toolRollupSql(kind),
  ]),
  turnRollupSql('none', FIVE_MINUTES_MS, false),
  ...TOOL_CUBES.map(({ kind, grain }) => turnRollupSql(kind, grain, true)),
].join('\n');

/** Stands for "no previous day" in usage_session_days' key (a key column cannot be NULL); below any day. */
export const NO_PREVIOUS_DAY = '-9223372036854775808';

const SESSION_DAY_CELL = 'kind, subscription_id, agent, model, app, is_error, day';
const sessionDayKey = (row: 'OLD' | 'NEW'): string =>
  `${SESSION_DAY_CELL.split(', ')
    .map((c) => `${c} = ${row}.${c}`)
    .join(' AND ')} AND prev_day = ifnull(${row}.prev_day, ${NO_PREVIOUS_DAY})`;
const countSessionDay = (row: 'OLD' | 'NEW'): string =>
  `INSERT INTO usage_session_days VALUES (${SESSION_DAY_CELL.split(', ')
    .map((c) => `${row}.${c}`)
    .join(', ')}, ifnull(${row}.prev_day, ${NO_PREVIOUS_DAY}), 1)
    ON CONFLICT DO UPDATE SET sessions = sessions + 1;`;
const uncountSessionDay = (row: 'OLD' | 'NEW'): string =>
  `UPDATE usage_session_days SET sessions = sessions - 1 WHERE ${sessionDayKey(row)};
   DELETE FROM usage_session_days WHERE ${sessionDayKey(row)} AND sessions = 0;`;

/**
 * Migration 12: how many usage_sessions rows each (cell, day, prev_day) holds. A session's first
 * day in a period is a row whose prev_day is before the period, so one cell's distinct sessions
 * are a SUM over a few rows here instead of a COUNT over one row per session-day (1M turns, a
 * breakdown by app: 711,000 rows read → 70). Triggers keep it in step with usage_sessions
 * whatever writes there: the turn writer, a backfill, a delete.
 */
export const SESSION_DAYS_SQL = `
  CREATE TABLE usage_session_days (
    kind TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    model TEXT NOT NULL,
    app TEXT NOT NULL,
    is_error INTEGER NOT NULL,
    day INTEGER NOT NULL,
    prev_day INTEGER NOT NULL,
    sessions INTEGER NOT NULL,
    PRIMARY KEY (${SESSION_DAY_CELL}, prev_day)
  ) WITHOUT ROWID;
  INSERT INTO usage_session_days
    SELECT ${SESSION_DAY_CELL}, ifnull(prev_day, ${NO_PREVIOUS_DAY}), COUNT(*) FROM usage_sessions
    GROUP BY ${SESSION_DAY_CELL}, ifnull(prev_day, ${NO_PREVIOUS_DAY});
  CREATE TRIGGER usage_sessions_counted AFTER INSERT ON usage_sessions BEGIN
    ${countSessionDay('NEW')}
  END;
  CREATE TRIGGER usage_sessions_recounted AFTER UPDATE ON usage_sessions BEGIN
    ${uncountSessionDay('OLD')}
    ${countSessionDay('NEW')}
  END;
  CREATE TRIGGER usage_sessions_uncounted AFTER DELETE ON usage_sessions BEGIN
    ${uncountSessionDay('OLD')}
  END;
`;

export const ROLLUP_CLEAR_SQL =
  'DELETE FROM usage_rollup; DELETE FROM usage_sessions; DELETE FROM usage_tool_rollup;';

const valueOf = (row: 'OLD' | 'NEW'): string =>
  `CASE ${row}.kind ${DIMENSIONS.map((d) => `WHEN '${d}' THEN ${row}.${TURN_COLUMNS[d]}`).join(' ')} END`;
const valueRow = (row: 'OLD' | 'NEW'): string =>
  `${row}.is_error = -1 AND ${row}.kind IN (${DIMENSIONS.map((d) => `'${d}'`).join(', ')})`;
const valueKey = (row: 'OLD' | 'NEW'): string =>
  `kind = ${row}.kind AND session_id = ${row}.session_id AND value = ${valueOf(row)}`;
const countValue = (row: 'OLD' | 'NEW'): string =>
  `INSERT INTO usage_session_values SELECT ${row}.kind, ${row}.session_id, ${valueOf(row)}, 1 WHERE ${valueRow(row)}
    ON CONFLICT DO UPDATE SET days = days + 1;`;
const uncountValue = (row: 'OLD' | 'NEW'): string =>
  `UPDATE usage_session_values SET days = days - 1 WHERE ${valueRow(row)} AND ${valueKey(row)};
   DELETE FROM usage_session_values WHERE ${valueRow(row)} AND ${valueKey(row)} AND days = 0;`;
const valuesOfSession = (row: 'OLD' | 'NEW'): string =>
  `(SELECT COUNT(*) FROM usage_session_values WHERE kind = ${row}.kind AND session_id = ${row}.session_id)`;
const addSpread = (row: 'OLD' | 'NEW'): string =>
  `INSERT OR IGNORE INTO usage_session_spread SELECT ${row}.kind, ${row}.session_id WHERE EXISTS (SELECT 1
    FROM usage_session_values WHERE kind = ${row}.kind AND session_id = ${row}.session_id AND value <> ${row}.value);`;
const removeSpread = (row: 'OLD' | 'NEW'): string =>
  `DELETE FROM usage_session_spread WHERE kind = ${row}.kind AND session_id = ${row}.session_id AND ${valuesOfSession(row)} < 2;`;

/**
 * Migration 13: the sessions whose turns hold more than one value of a dimension. A group that
 * spans several cells of a cuboid (a breakdown by app filtered on a model spans every
 * subscription and agent) counts each of its sessions once per cell it is in when it sums
 * usage_session_days; only a session with two values of a dimension the group's cells differ
 * in can be in two of them, so the sum is exact once those few sessions are taken back.
 * usage_session_values holds, per dimension (kind), session and value, its usage_sessions rows
 * (is_error −1, any day); usage_session_spread the sessions with two values or more. Triggers
 * keep both in step with usage_sessions, as usage_session_days is.
 */
export const SESSION_SPREAD_SQL = `
  CREATE TABLE usage_session_values (
    kind TEXT NOT NULL,
    session_id TEXT NOT NULL,
    value TEXT NOT NULL,
    days INTEGER NOT NULL,
    PRIMARY KEY (kind, session_id, value)
  ) WITHOUT ROWID;
  CREATE TABLE usage_session_spread (
    kind TEXT NOT NULL,
    session_id TEXT NOT NULL,
    PRIMARY KEY (kind, session_id)
  ) WITHOUT ROWID;
  INSERT INTO usage_session_values
    SELECT kind, session_id, ${valueOf('NEW').replaceAll('NEW.', '')}, COUNT(*) FROM usage_sessions
    WHERE ${valueRow('NEW').replaceAll('NEW.', '')} GROUP BY 1, 2, 3;
  INSERT INTO usage_session_spread
    SELECT kind, session_id FROM usage_session_values GROUP BY kind, session_id HAVING COUNT(*) > 1;
  CREATE TRIGGER usage_session_values_counted AFTER INSERT ON usage_sessions WHEN ${valueRow('NEW')} BEGIN
    ${countValue('NEW')}
  END;
  CREATE TRIGGER usage_session_values_recounted
    AFTER UPDATE OF kind, subscription_id, agent, model, app, is_error, session_id ON usage_sessions BEGIN
    ${uncountValue('OLD')}
    ${countValue('NEW')}
  END;
  CREATE TRIGGER usage_session_values_uncounted AFTER DELETE ON usage_sessions WHEN ${valueRow('OLD')} BEGIN
    ${uncountValue('OLD')}
  END;
  CREATE TRIGGER usage_session_spread_added AFTER INSERT ON usage_session_values BEGIN
    ${addSpread('NEW')}
  END;
  CREATE TRIGGER usage_session_spread_moved AFTER UPDATE OF kind, session_id, value ON usage_session_values BEGIN
    ${removeSpread('OLD')}
    ${addSpread('NEW')}
  END;
  CREATE TRIGGER usage_session_spread_removed AFTER DELETE ON usage_session_values BEGIN
    ${removeSpread('OLD')}
  END;
`;
