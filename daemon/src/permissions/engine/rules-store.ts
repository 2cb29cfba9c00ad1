import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_RULES } from './default-rules.js';
import { parseRules, serializeRules, type RulesError } from './rules-file.js';
import type { Rule, RuleSet } from './types.js';

export interface RulesDiff {
  fromVersion: number;
  toVersion: number;
  added: string[];
  removed: string[];
  changed: string[];
  /** One line for the audit trail: `v3 → v4: +1 (x), -0, ~2 (y, z)`. */
  summary: string;
}

export type LoadRulesResult = { ok: true; rules: RuleSet; source: 'file' | 'default' } | RulesError;
export type SaveRulesResult = { ok: true; rules: RuleSet; diff: RulesDiff } | RulesError;

export const RULES_FILE_NAME = 'permission-rules.json';

/**
 * The rules file in a folder. An invalid file or edit never replaces the rules in force: the error
 * comes back (line, path, reason) and the previous valid set stays current.
 */
export class RulesStore {
  private rules: RuleSet;
  readonly filePath: string;

  constructor(
    folder: string,
    fileName: string = RULES_FILE_NAME,
    initial: RuleSet = DEFAULT_RULES,
  ) {
    this.filePath = path.join(folder, fileName);
    this.rules = initial;
  }

  get current(): RuleSet {
    return this.rules;
  }

  /** Reads the file; a missing file keeps the current (initially default) rules. */
  load(): LoadRulesResult {
    let text: string;
    try {
      text = fs.readFileSync(this.filePath, 'utf8');
    } catch (err: unknown) {
      if (typeof err === 'object' && err !== null && 'code' in err && err.code === 'ENOENT') {
        return { ok: true, rules: this.rules, source: 'default' };
      }
      return {
        ok: false,
        line: 0,
        path: '',
        reason: `cannot read ${this.filePath}: ${String(err)}`,
      };
    }
    const parsed = parseRules(text);
    if (!parsed.ok) return parsed;
    this.rules = parsed.rules;
    return { ok: true, rules: parsed.rules, source: 'file' };
  }

  /** Validates, bumps the version past the current one, writes atomically, returns the diff. */
  save(next: string | RuleSet): SaveRulesResult {
    const parsed = parseRules(typeof next === 'string' ? next : serializeRules(next));
    if (!parsed.ok) return parsed;
    const previous = this.rules;
    const saved: RuleSet = Object.freeze({
      version: previous.version + 1,
      rules: parsed.rules.rules,
    });
    try {
      writeAtomically(this.filePath, serializeRules(saved));
    } catch (err: unknown) {
      return {
        ok: false,
        line: 0,
        path: '',
        reason: `cannot write ${this.filePath}: ${String(err)}`,
      };
    }
    this.rules = saved;
    return { ok: true, rules: saved, diff: diffRules(previous, saved) };
  }
}

function writeAtomically(file: string, data: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err: unknown) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // Some filesystems refuse fsync on a folder; the rename already happened.
  }
}

export function diffRules(before: RuleSet, after: RuleSet): RulesDiff {
  const key = (r: Rule): string => JSON.stringify(r);
  const old = new Map(before.rules.map((r) => [r.id, key(r)]));
  const now = new Map(after.rules.map((r) => [r.id, key(r)]));
  const added = [...now.keys()].filter((id) => !old.has(id));
  const removed = [...old.keys()].filter((id) => !now.has(id));
  const changed = [...now.keys()].filter((id) => old.has(id) && old.get(id) !== now.get(id));
  const part = (sign: string, ids: string[]): string =>
    ids.length > 0 ? `${sign}${ids.length} (${ids.join(', ')})` : `${sign}0`;
  const order = (set: RuleSet): string => set.rules.map((r) => r.id).join('\n');
  const moved =
    added.length + removed.length + changed.length === 0 && order(before) !== order(after)
      ? ', order changed'
      : '';
  return {
    fromVersion: before.version,
    toVersion: after.version,
    added,
    removed,
    changed,
    summary: `v${before.version} → v${after.version}: ${part('+', added)}, ${part('-', removed)}, ${part('~', changed)}${moved}`,
  };
}
