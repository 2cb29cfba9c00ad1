import { IMPORTED_APP } from '../../../contract/origin.js';
import type { AnalyticsFilter } from '../../../contract/usage.js';

export interface Where {
  /** `WHERE …` or the empty string. */
  sql: string;
  args: (string | number)[];
}

interface Columns {
  agent: string;
  model: string;
  subscription: string;
  app: string;
  startedAt: string;
  isError: string;
  /** SQL that keeps rows whose turn called one of the tools (the `?` list is appended). */
  tool: (marks: string) => string;
}

const TURNS: Columns = {
  agent: 'agent',
  model: 'model',
  subscription: 'subscription_id',
  app: 'app',
  startedAt: 'started_at_ms',
  isError: 'is_error',
  tool: (marks) => `id IN (SELECT turn_id FROM tool_calls WHERE tool_name IN (${marks}))`,
};

/** For paging newest first: probing each turn's calls beats building the whole set of turns that called the tool. */
const TURNS_PAGE: Columns = {
  ...TURNS,
  tool: (marks) =>
    `EXISTS (SELECT 1 FROM tool_calls c WHERE c.turn_id = turns.id AND c.tool_name IN (${marks}))`,
};

/** tool_calls carries copies of its turn's dimensions, so tool figures filter without a join. */
const TOOL_CALLS: Columns = {
  agent: 'agent',
  model: 'model',
  subscription: 'subscription_id',
  app: 'app',
  startedAt: 'turn_started_at_ms',
  isError: 'turn_is_error',
  tool: (marks) => `tool_name IN (${marks})`,
};

function build(
  filter: AnalyticsFilter,
  columns: Columns,
  extra: string[] = [],
  extraArgs: (string | number)[] = [],
): Where {
  const clauses: string[] = [];
  const args: (string | number)[] = [];
  const list = (column: string, values: string[] | undefined): void => {
    if (!values?.length) return;
    clauses.push(`${column} IN (${values.map(() => '?').join(',')})`);
    args.push(...values);
  };
  list(columns.agent, filter.agent);
  list(columns.model, filter.model);
  list(columns.subscription, filter.subscription);
  list(columns.app, filter.app);
  // Rows carry their session, not the key: the rollups do not hold it (kindFor reads raw rows).
  if (filter.caller?.length) {
    const marks = filter.caller.map(() => '?').join(',');
    clauses.push(`session_id IN (SELECT id FROM sessions WHERE key_id IN (${marks}))`);
    args.push(...filter.caller);
  }
  const add = (sql: string, value: string | number): void => {
    clauses.push(sql);
    args.push(value);
  };
  if (filter.origin) add(`${columns.app} ${originOperator(filter)} ?`, IMPORTED_APP);
  if (filter.from) add(`${columns.startedAt} >= ?`, Date.parse(filter.from));
  if (filter.to) add(`${columns.startedAt} < ?`, Date.parse(filter.to));
  if (filter.error) add(`${columns.isError} = ?`, filter.error === 'yes' ? 1 : 0);
  if (filter.tool?.length) {
    clauses.push(columns.tool(filter.tool.map(() => '?').join(',')));
    args.push(...filter.tool);
  }
  clauses.push(...extra);
  args.push(...extraArgs);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', args };
}

export function turnsWhere(
  filter: AnalyticsFilter,
  extra: string[] = [],
  extraArgs: (string | number)[] = [],
): Where {
  return build(filter, TURNS, extra, extraArgs);
}

export function turnsPageWhere(
  filter: AnalyticsFilter,
  extra: string[] = [],
  extraArgs: (string | number)[] = [],
): Where {
  return build(filter, TURNS_PAGE, extra, extraArgs);
}

/**
 * As turnsWhere, but the tool subquery also carries the other filters (tool_calls holds copies of
 * its turn's dimensions), so it yields only the turns wanted instead of every turn that called the tool.
 */
export function turnsNarrowWhere(
  filter: AnalyticsFilter,
  extra: string[] = [],
  extraArgs: (string | number)[] = [],
): Where {
  if (!filter.tool?.length) return build(filter, TURNS, extra, extraArgs);
  const calls = toolCallsWhere(filter);
  const base = build(
    { ...filter, tool: undefined },
    TURNS,
    [`id IN (SELECT turn_id FROM tool_calls ${calls.sql})`, ...extra],
    [...calls.args, ...extraArgs],
  );
  return base;
}

export function toolCallsWhere(filter: AnalyticsFilter): Where {
  return build(filter, TOOL_CALLS);
}

/** Imported turns carry the app "imported": an origin compares the app with it, so a new app counts as relais. */
export const originOperator = (filter: AnalyticsFilter): '=' | '<>' =>
  filter.origin === 'imported' ? '=' : '<>';

/** The filter without paging/format keys, as the repository expects it. */
export function pickFilter<T extends AnalyticsFilter>(query: T): AnalyticsFilter {
  const { agent, model, tool, subscription, app, caller, from, to, error, origin } = query;
  return { agent, model, tool, subscription, app, caller, from, to, error, origin };
}
