import path from 'node:path';
import { mcpStep } from './mcp-step.js';
import { modeStep } from './mode.js';
import { checkPaths, pathEnv } from './path-step.js';
import { canonicalize, nodeFs, snapshotFs } from './realpath.js';
import { evaluateRules } from './rules-eval.js';
import { SEARCH_TOOLS, searchStep } from './search.js';
import { analyzeShell } from './shell-analyze.js';
import { classifyTool, fileToolRefs, type PathRef, type ToolClass } from './tools.js';
import { PERMISSION_MODES, type Decision, type EngineContext, type ToolRequest } from './types.js';

/**
 * Decides one tool request: mode, then real paths, then rules (deny → ask → allow), then the default.
 * Never throws: any failure inside refuses (fail closed).
 */
export function decide(request: ToolRequest, ctx: EngineContext): Decision {
  try {
    const decision = decideOrThrow(request, ctx);
    return decision.decision === 'ask' && Object.hasOwn(SEARCH_TOOLS, request.tool_name)
      ? searchNotAsked(decision)
      : decision;
  } catch (err: unknown) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      decision: 'deny',
      step: 'engine_error',
      rule: null,
      reason: `permission engine failure, refused: ${message}`,
    };
  }
}

function validate(request: ToolRequest): void {
  if (typeof request !== 'object' || request === null)
    throw new TypeError('request is not an object');
  if (typeof request.tool_name !== 'string' || request.tool_name === '')
    throw new TypeError('tool_name is missing');
  if (typeof request.input !== 'object' || request.input === null || Array.isArray(request.input)) {
    throw new TypeError('input is not an object');
  }
  if (typeof request.cwd !== 'string' || !path.isAbsolute(request.cwd))
    throw new TypeError('cwd is not an absolute path');
  if (!(PERMISSION_MODES as readonly string[]).includes(request.permission_mode)) {
    throw new TypeError(`unknown permission mode ${String(request.permission_mode)}`);
  }
  const trusted = request.trusted_dirs;
  if (
    trusted !== undefined &&
    (!Array.isArray(trusted) || trusted.some((t) => typeof t !== 'string' || t === ''))
  ) {
    throw new TypeError('trusted_dirs must be a list of folders');
  }
}

/**
 * The most characters of one command or path the engine analyses. Past it, reading the text would
 * cost more than a decision may (see the benchmark), and nothing legitimate needs it: the request
 * goes to a person, never to allow (and is refused where nobody can answer).
 */
export const MAX_ANALYSED_CHARS = 4096;
/** The most paths of one command the engine resolves and checks against the circles. */
export const MAX_PATHS = 256;
const ANALYSED_FIELDS = ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'glob'];

function oversized(input: Record<string, unknown>): Decision | null {
  for (const field of ANALYSED_FIELDS) {
    const value = input[field];
    if (typeof value === 'string' && value.length > MAX_ANALYSED_CHARS)
      return {
        decision: 'ask',
        step: 'path',
        rule: null,
        reason: `${field} is ${value.length} characters long, more than the ${MAX_ANALYSED_CHARS} the permission engine analyses; a person will be asked`,
      };
  }
  return null;
}

const pathDenial = (reason: string): Decision => ({
  decision: 'deny',
  step: 'path',
  rule: null,
  reason,
});

function decideOrThrow(request: ToolRequest, ctx: EngineContext): Decision {
  validate(request);
  const { tool_name: tool, input, cwd } = request;
  const toolClass = classifyTool(tool);
  const early = beforePaths(request, toolClass);
  if (early !== null) return early;

  const fs = snapshotFs(ctx.fs ?? nodeFs);
  const named =
    toolClass === 'bash'
      ? commandPaths(input['command'], cwd, ctx, fs)
      : filePaths(tool, input, cwd, ctx);
  if ('decision' in named) return named;

  const env = pathEnv(fs, cwd, request.trusted_dirs ?? [cwd], ctx.dataDir);
  const paths = checkPaths(named.refs, env, toolClass === 'bash');
  if (paths.denial !== null) return paths.denial;
  let caution = named.caution ?? paths.caution;

  const cwdPaths = { raw: path.resolve(cwd), real: canonicalize(fs, '/', cwd).real };
  const home = {
    raw: path.resolve(ctx.homeDir),
    real: canonicalize(fs, '/', path.resolve(ctx.homeDir)).real,
  };
  const search = SEARCH_TOOLS[tool];
  const root = paths.checked[0];
  let narrowed: Record<string, unknown> | undefined;
  if (search !== undefined && root !== undefined) {
    const dataDir = { raw: env.dataDirRaw, real: env.dataDirReal };
    const reach = searchStep({
      tool: search,
      input,
      root,
      rules: ctx.rules,
      cwd: cwdPaths,
      home,
      dataDir,
    });
    if (reach.kind === 'refused') return reach.decision;
    if (reach.kind === 'ask') caution ??= reach.reason;
    if (reach.kind === 'narrowed') narrowed = reach.input;
  }

  const decided = decideByRules(
    evaluateRules(ctx.rules, {
      commandTexts: named.commandTexts,
      commandForms: named.commandForms,
      paths: paths.checked,
      cwd: cwdPaths,
      home,
    }),
    caution,
    toolClass,
  );
  return narrowed === undefined || decided.decision === 'deny'
    ? decided
    : { ...decided, updatedInput: narrowed };
}

/** What decides before any path is read: an MCP tool's step, the mode, an input too long to read. */
function beforePaths(request: ToolRequest, toolClass: ToolClass): Decision | null {
  const { tool_name: tool, input } = request;
  const byMcp = toolClass === 'mcp' ? mcpStep(tool, request.mcp_tools) : null;
  return byMcp ?? modeStep(request.permission_mode, tool, toolClass, input) ?? oversized(input);
}

/** The paths a request names, and for a command its texts and what the analysis was unsure of. */
interface NamedPaths {
  refs: PathRef[];
  commandTexts: string[] | null;
  commandForms: string[] | null;
  caution: string | null;
}

function commandPaths(
  command: unknown,
  cwd: string,
  ctx: EngineContext,
  fs: ReturnType<typeof snapshotFs>,
): NamedPaths | Decision {
  if (typeof command !== 'string' || command.trim() === '')
    return pathDenial('Bash: command is missing or empty');
  if (command.includes('\0')) return pathDenial('Bash: command contains a NUL byte');
  const shell = analyzeShell(command, cwd, ctx.agentHomeDir ?? ctx.homeDir, fs);
  if (shell.refs.length > MAX_PATHS)
    return {
      decision: 'ask',
      step: 'path',
      rule: null,
      reason: `the command names ${shell.refs.length} paths, more than the ${MAX_PATHS} the permission engine checks; a person will be asked`,
    };
  return {
    // The shell itself runs in cwd: whatever it does there unnamed happens in that folder.
    refs: [{ raw: '.', access: 'read', cwds: [cwd], origin: 'Bash working folder' }, ...shell.refs],
    commandTexts: shell.commandTexts,
    commandForms: shell.commandForms,
    caution: shell.uncertain,
  };
}

function filePaths(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
  ctx: EngineContext,
): NamedPaths | Decision {
  const found = fileToolRefs(tool, input, cwd, ctx.agentHomeDir ?? ctx.homeDir);
  if (!found.ok) return pathDenial(found.reason);
  return { refs: found.refs, commandTexts: null, commandForms: null, caution: null };
}

/**
 * Relais opts Claude Code into its search tools with an allow list, which may let the agent run a
 * search a hook sent to a person without asking: a search that would need a person is refused.
 */
function searchNotAsked(asked: Decision): Decision {
  return {
    ...asked,
    decision: 'deny',
    reason: `${asked.reason.replace(/; a person will be asked$/, '')}; a search is not left to a person: narrow it (path, glob) or use Read`,
  };
}

function decideByRules(
  ruled: Decision | null,
  caution: string | null,
  toolClass: ToolClass,
): Decision {
  if (ruled !== null && !(ruled.decision === 'allow' && caution !== null)) return ruled;
  if (caution !== null)
    return {
      decision: 'ask',
      step: 'path',
      rule: null,
      reason: `${caution}; a person will be asked`,
    };
  return byDefault(toolClass);
}

function byDefault(toolClass: ToolClass): Decision {
  switch (toolClass) {
    case 'local_read':
      return {
        decision: 'allow',
        step: 'default',
        rule: null,
        reason: 'a read inside the trusted folders; no rule objects',
      };
    case 'bookkeeping':
      return {
        decision: 'allow',
        step: 'default',
        rule: null,
        reason: 'bookkeeping of the agent; touches nothing',
      };
    case 'person':
      return {
        decision: 'ask',
        step: 'default',
        rule: null,
        reason: 'addressed to the person, who answers it',
      };
    case 'network_read':
      return {
        decision: 'ask',
        step: 'default',
        rule: null,
        reason: 'reaches the network, which can carry data out; a person will be asked',
      };
    default:
      return {
        decision: 'ask',
        step: 'default',
        rule: null,
        reason: 'no rule decided; a person will be asked',
      };
  }
}

/** The text sent back to the agent when a request is refused (or a person did not approve it). */
export function gateReport(decision: Decision): string {
  const who = decision.rule !== null ? `rule "${decision.rule}"` : `${decision.step} step`;
  const reason = decision.reason.replace(/[.\s]+$/, '');
  const head =
    decision.decision === 'ask'
      ? `Refused by the permission gate (a person had to approve this, and did not) — ${who}: ${reason}.`
      : decision.decision === 'deny'
        ? `Refused by the permission gate — ${who}: ${reason}.`
        : `Allowed by the permission gate — ${who}: ${reason}.`;
  return decision.decision === 'allow' ? head : `${head}\nDo not work around this rule; report it.`;
}
