/**
 * The permission engine's verdicts in words: a decision (a tool call's, a rules change's, a caller
 * key's) and the step that made it. A value the daemon adds later shows as it is.
 */
const DECISIONS: Record<string, string> = {
  allow: $localize`:audit decision:allow`,
  ask: $localize`:audit decision:ask`,
  deny: $localize`:audit decision:deny`,
  saved: $localize`:audit decision:saved`,
  key_created: $localize`:audit decision:key created`,
  key_revoked: $localize`:audit decision:key revoked`,
  done: $localize`:audit decision:done`,
  refused: $localize`:audit decision:refused`,
};

const STEPS: Record<string, string> = {
  allowed_host: $localize`:decision step:host allowed always`,
  confined: $localize`:decision step:confined command`,
  default: $localize`:decision step:default`,
  engine_error: $localize`:decision step:engine error`,
  mcp: $localize`:decision step:MCP tools`,
  mode: $localize`:decision step:mode`,
  path: $localize`:decision step:protected path`,
  rule: $localize`:decision step:rule`,
  session_rule: $localize`:decision step:rule for this session`,
};

const label = (labels: Record<string, string>, value: string): string =>
  Object.hasOwn(labels, value) ? labels[value]! : value;

export const decisionLabel = (decision: string): string => label(DECISIONS, decision);
export const stepLabel = (step: string): string => label(STEPS, step);
