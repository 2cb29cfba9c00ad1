import { z } from 'zod';
import { compileGlob } from './glob.js';
import { JsonSyntaxError, locateJson, locationKey } from './json-locate.js';
import { upgradeOldDefaults } from './legacy-patterns.js';
import { compileRulePattern } from './rule-pattern.js';
import { PATH_RULE_KINDS, RULE_ACTIONS, type Rule, type RuleSet } from './types.js';

/**
 * The rules file: JSON, human-editable, versioned.
 * { "version": 3, "rules": [ { "id": …, "kind": "bash" | "zero_access" | "read_only" | "no_delete", … } ] }
 */

const id = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/,
    'id: 1-64 letters, digits, "_", ".", ":" or "-", starting with a letter or digit',
  );
const reason = z
  .string()
  .trim()
  .min(1, 'reason must say why (it is sent back to the agent)')
  .max(500);

const bashRule = z
  .strictObject({
    id,
    kind: z.literal('bash'),
    pattern: z.string().min(1, 'pattern must not be empty').max(2000),
    flags: z
      .string()
      .regex(/^(?!.*(.).*\1)[imsu]*$/, 'flags: any of i, m, s, u, each at most once')
      .optional(),
    action: z.enum(RULE_ACTIONS),
    reason,
  })
  .superRefine((rule, ctx) => {
    try {
      compileRulePattern(rule.pattern, rule.flags ?? '');
    } catch (err: unknown) {
      ctx.addIssue({
        code: 'custom',
        path: ['pattern'],
        message: `pattern is not a valid regular expression for RE2 (the linear-time engine rules run on): ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  });

const pathGlob = z
  .string()
  .min(1, 'a path glob must not be empty')
  .max(1000, 'a path glob is at most 1000 characters')
  .refine((p) => !p.includes('\0'), 'a path glob must not contain a NUL byte')
  .refine((p) => !/^~[^/]/.test(p), 'only "~/" (your home) is understood, not "~user"')
  .refine(compiles, 'this glob cannot be read (see the globs in the engine README)');

function compiles(glob: string): boolean {
  try {
    compileGlob(glob);
    return true;
  } catch {
    return false;
  }
}

const pathRule = z.strictObject({
  id,
  kind: z.enum(PATH_RULE_KINDS),
  paths: z.array(pathGlob).min(1, 'paths must list at least one glob'),
  action: z.enum(['deny', 'ask']).optional(),
  reason,
});

const ruleSchema = z.discriminatedUnion('kind', [bashRule, pathRule]);

const ruleSetSchema = z
  .strictObject({
    version: z.number().int('version must be a whole number').min(0),
    rules: z.array(ruleSchema).max(2000),
  })
  .superRefine((set, ctx) => {
    const seen = new Set<string>();
    set.rules.forEach((rule, i) => {
      if (seen.has(rule.id))
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'id'],
          message: `duplicate rule id "${rule.id}"`,
        });
      seen.add(rule.id);
    });
  });

export interface RulesError {
  ok: false;
  /** 1-based line in the file (0 when the file could not be read at all). */
  line: number;
  /** Where in the document: `rules[3].pattern`, or '' for the whole file. */
  path: string;
  reason: string;
}

export type ParseRulesResult = { ok: true; rules: RuleSet } | RulesError;

function displayPath(segments: readonly PropertyKey[]): string {
  return segments
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? String(s) : `.${String(s)}`))
    .join('');
}

function lineOf(lines: Map<string, number>, segments: readonly PropertyKey[]): number {
  for (let n = segments.length; n >= 0; n -= 1) {
    const line = lines.get(locationKey(segments.slice(0, n)));
    if (line !== undefined) return line;
  }
  return 1;
}

export function parseRules(text: string): ParseRulesResult {
  let lines: Map<string, number>;
  try {
    lines = locateJson(text);
  } catch (err: unknown) {
    if (err instanceof JsonSyntaxError)
      return { ok: false, line: err.line, path: '', reason: `not valid JSON: ${err.message}` };
    throw err;
  }
  const data: unknown = JSON.parse(text);
  upgradeOldDefaults(data);
  const parsed = ruleSetSchema.safeParse(data);
  if (!parsed.success) {
    // A misspelt key also makes the real one "missing": name the typo first, it is the cause.
    const issue =
      parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0];
    const extra = issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
    const segments = [...(issue?.path ?? []), ...extra];
    return {
      ok: false,
      line: lineOf(lines, segments),
      path: displayPath(segments),
      reason: issue?.message ?? 'invalid rules file',
    };
  }
  const rules = parsed.data.rules.map((r): Rule => Object.freeze(canonicalRule(r as Rule)));
  return {
    ok: true,
    rules: Object.freeze({ version: parsed.data.version, rules: Object.freeze(rules) }),
  };
}

/** Same keys in the same order whatever the source, so saved files diff cleanly. */
function canonicalRule(rule: Rule): Rule {
  if (rule.kind === 'bash') {
    const { id: ruleId, pattern, flags, action, reason: why } = rule;
    return flags === undefined || flags === ''
      ? { id: ruleId, kind: 'bash', pattern, action, reason: why }
      : { id: ruleId, kind: 'bash', pattern, flags, action, reason: why };
  }
  const { id: ruleId, kind, paths, action, reason: why } = rule;
  return action === undefined
    ? { id: ruleId, kind, paths: Object.freeze([...paths]) as string[], reason: why }
    : { id: ruleId, kind, paths: Object.freeze([...paths]) as string[], action, reason: why };
}

export function serializeRules(set: RuleSet): string {
  const doc = { version: set.version, rules: set.rules.map(canonicalRule) };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
