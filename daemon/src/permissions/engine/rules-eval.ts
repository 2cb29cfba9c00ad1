import { compileGlob, isWithin, relativeWithin, segmentsBelow, type CompiledGlob } from './glob.js';
import type { CheckedPath } from './path-step.js';
import { compileRulePattern, type RulePattern } from './rule-pattern.js';
import type {
  AccessKind,
  BashRule,
  Decision,
  PathRule,
  PathRuleKind,
  RuleAction,
  RuleSet,
} from './types.js';

type Compiled =
  | { rule: BashRule; action: RuleAction; re: RulePattern }
  | { rule: PathRule; action: RuleAction; globs: CompiledGlob[] };

interface CompiledSet {
  byAction: Record<RuleAction, Compiled[]>;
}

const cache = new WeakMap<RuleSet, CompiledSet>();

function compile(set: RuleSet): CompiledSet {
  const hit = cache.get(set);
  if (hit) return hit;
  const byAction: Record<RuleAction, Compiled[]> = { deny: [], ask: [], allow: [] };
  for (const rule of set.rules) {
    if (rule.kind === 'bash') {
      byAction[rule.action].push({
        rule,
        action: rule.action,
        re: compileRulePattern(rule.pattern, rule.flags ?? ''),
      });
    } else {
      const action = rule.action ?? 'deny';
      byAction[action].push({ rule, action, globs: rule.paths.map(compileGlob) });
    }
  }
  const compiled = { byAction };
  cache.set(set, compiled);
  return compiled;
}

export interface RuleSubject {
  /** Bash: every simple command's text (what allow rules must cover). null for other tools. */
  commandTexts: readonly string[] | null;
  /** Bash: those texts and their normal forms (what deny and ask rules are tested against). */
  commandForms: readonly string[] | null;
  paths: readonly CheckedPath[];
  cwd: { raw: string; real: string };
  home: { raw: string; real: string };
}

/** What each circle forbids. */
const BLOCKS: Readonly<Record<PathRuleKind, readonly AccessKind[]>> = {
  zero_access: ['read', 'write', 'delete'],
  read_only: ['write', 'delete'],
  no_delete: ['delete'],
};

const CIRCLE: Readonly<Record<PathRuleKind, string>> = {
  zero_access: 'zero-access',
  read_only: 'read-only',
  no_delete: 'no-delete',
};

/** Step 3: all deny rules, then ask, then allow; within one action, file order. */
export function evaluateRules(set: RuleSet, subject: RuleSubject): Decision | null {
  const compiled = compile(set);
  for (const action of ['deny', 'ask'] as const) {
    for (const c of compiled.byAction[action]) {
      const why =
        're' in c ? bashMatch(c.re, subject.commandForms) : pathMatch(c.rule, c.globs, subject);
      if (why !== null)
        return {
          decision: action,
          step: 'rule',
          rule: c.rule.id,
          reason: `${c.rule.reason} (${why})`,
        };
    }
  }
  return allowRule(compiled.byAction.allow, subject.commandTexts);
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function bashMatch(re: RulePattern, texts: readonly string[] | null): string | null {
  if (texts === null) return null;
  const hit = texts.find((t) => re.test(t));
  return hit === undefined ? null : `matched: ${clip(hit)}`;
}

/** Allow only when every simple command is allowed by some rule: one allowed command never carries a chain. */
function allowRule(allow: readonly Compiled[], texts: readonly string[] | null): Decision | null {
  if (texts === null || texts.length === 0) return null;
  const bash = allow.filter((c): c is Extract<Compiled, { re: RulePattern }> => 're' in c);
  let first: Extract<Compiled, { re: RulePattern }> | null = null;
  for (const text of texts) {
    const hit = bash.find((c) => c.re.test(text));
    if (hit === undefined) return null;
    if (first === null || bash.indexOf(hit) < bash.indexOf(first)) first = hit;
  }
  return first === null
    ? null
    : { decision: 'allow', step: 'rule', rule: first.rule.id, reason: first.rule.reason };
}

function pathMatch(
  rule: PathRule,
  globs: readonly CompiledGlob[],
  subject: RuleSubject,
): string | null {
  const blocked = BLOCKS[rule.kind];
  for (const p of subject.paths) {
    if (!blocked.includes(p.access)) continue;
    const glob = globs.find((g) => globCovers(g, p, subject));
    if (glob !== undefined)
      return `${CIRCLE[rule.kind]} ${glob.source}: ${p.origin} would ${p.access} ${p.real}`;
  }
  return null;
}

function globCovers(g: CompiledGlob, p: CheckedPath, s: RuleSubject): boolean {
  if (g.anchor === 'name') {
    return (
      segmentsBelow(p.real, p.root).some((seg) => g.re.test(seg)) ||
      segmentsBelow(p.lexical, p.lexicalRoot).some((seg) => g.re.test(seg))
    );
  }
  const anchors: [string, string][] =
    g.anchor === 'absolute'
      ? [['/', '/']]
      : g.anchor === 'home'
        ? [[s.home.real, s.home.raw]]
        : [[s.cwd.real, s.cwd.raw]];
  for (const [real, raw] of anchors) {
    for (const [candidate, base] of [
      [p.real, real],
      [p.lexical, raw],
    ] as const) {
      const rel = g.anchor === 'absolute' ? candidate : relativeWithin(candidate, base);
      if (rel !== null && g.re.test(rel)) return true;
      // Deleting or moving a folder takes what the circle protects inside it with it.
      if (p.access === 'delete') {
        const protectedBase =
          g.anchor === 'absolute' ? g.literalPrefix : joinAnchor(base, g.literalPrefix);
        if (protectedBase !== '' && isWithin(protectedBase, candidate)) return true;
      }
    }
  }
  return false;
}

function joinAnchor(base: string, rel: string): string {
  if (rel === '') return base;
  return base === '/' ? `/${rel}` : `${base}/${rel}`;
}
