export { decide, gateReport } from './decide.js';
export { DEFAULT_RULES } from './default-rules.js';
export {
  parseRules,
  serializeRules,
  type ParseRulesResult,
  type RulesError,
} from './rules-file.js';
export {
  RulesStore,
  RULES_FILE_NAME,
  diffRules,
  type LoadRulesResult,
  type RulesDiff,
  type SaveRulesResult,
} from './rules-store.js';
export { classifyTool, type ToolClass } from './tools.js';
export type {
  AccessKind,
  BashRule,
  Decision,
  DecisionKind,
  DecisionStep,
  EngineContext,
  EngineFs,
  PathRule,
  PathRuleKind,
  PermissionMode,
  Rule,
  RuleAction,
  RuleSet,
  ToolRequest,
} from './types.js';
