import type { BigIntStats, Stats } from 'node:fs';

export const PERMISSION_MODES = ['read_only', 'write', 'dry_run'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface ToolRequest {
  tool_name: string;
  input: Record<string, unknown>;
  cwd: string;
  permission_mode: PermissionMode;
  /** Defaults to [cwd]. */
  trusted_dirs?: string[];
  /**
   * The MCP tools (`mcp__server__tool`) the session's launch allowed. When given, every other MCP
   * tool is refused whatever the mode and the rules; absent, MCP tools go through the steps alone.
   */
  mcp_tools?: readonly string[];
}

export const DECISIONS = ['allow', 'ask', 'deny'] as const;
export type DecisionKind = (typeof DECISIONS)[number];

export const DECISION_STEPS = ['mcp', 'mode', 'path', 'rule', 'default', 'engine_error'] as const;
export type DecisionStep = (typeof DECISION_STEPS)[number];

export interface Decision {
  decision: DecisionKind;
  step: DecisionStep;
  /** Id of the rule that decided, if any. */
  rule: string | null;
  reason: string;
  /**
   * The input the agent must run instead of its own, when the engine narrowed it (a search with the
   * zero-access files excluded). Whoever allows the request, the rules or a person, allows this one.
   */
  updatedInput?: Record<string, unknown>;
}

export const RULE_ACTIONS = ['deny', 'ask', 'allow'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const PATH_RULE_KINDS = ['zero_access', 'read_only', 'no_delete'] as const;
export type PathRuleKind = (typeof PATH_RULE_KINDS)[number];

export interface BashRule {
  id: string;
  kind: 'bash';
  /** JavaScript regular expression, tested against the whole command and each sub-command. */
  pattern: string;
  /** Optional RegExp flags among i, m, s, u. */
  flags?: string;
  action: RuleAction;
  reason: string;
}

export interface PathRule {
  id: string;
  kind: PathRuleKind;
  /** Globs: `~/` = home, `/…` absolute, `**`, `*`, `?`; no `/` at all = a name compared to each path segment; else relative to the cwd. */
  paths: string[];
  /** A circle refuses (deny, the default) or sends the request to a person (ask). */
  action?: 'deny' | 'ask';
  reason: string;
}

export type Rule = BashRule | PathRule;

export interface RuleSet {
  version: number;
  rules: readonly Rule[];
}

/** The filesystem calls the engine makes; injectable so tests can break it. */
export interface EngineFs {
  realpath(path: string): string;
  lstat(path: string): Stats | BigIntStats;
  stat(path: string): Stats | BigIntStats;
  readlink(path: string): string;
  readdir(path: string): string[];
}

export interface EngineContext {
  rules: RuleSet;
  /** The daemon's own data folder: always zero-access. */
  dataDir: string;
  /** The user's home: what `~` means in the rules' path circles (`~/.ssh/`). */
  homeDir: string;
  /** The agent's HOME: what `~` and `$HOME` mean in its commands and paths. Default: homeDir. */
  agentHomeDir?: string;
  /** Defaults to node:fs. */
  fs?: EngineFs;
}

/** What a tool or a shell command would do to one path. */
export const ACCESS_KINDS = ['read', 'write', 'delete'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];
