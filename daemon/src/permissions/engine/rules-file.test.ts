import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { DEFAULT_RULES } from './default-rules.js';
import { parseRules, serializeRules, type ParseRulesResult } from './rules-file.js';
import { RulesStore } from './rules-store.js';

const VALID = `{
  "version": 4,
  "rules": [
    {
      "id": "no-force",
      "kind": "bash",
      "pattern": "git push.*--force(?:$|[^\\\\w-])",
      "action": "deny",
      "reason": "use --force-with-lease"
    },
    {
      "id": "secrets",
      "kind": "zero_access",
      "paths": [".env", "~/.ssh/"],
      "reason": "secrets"
    }
  ]
}
`;

function rejected(result: ParseRulesResult): { line: number; path: string; reason: string } {
  assert.equal(result.ok, false, JSON.stringify(result));
  if (result.ok) throw new Error('unreachable');
  return result;
}

/** VALID with one line replaced (1-based). */
function withLine(line: number, text: string): string {
  const lines = VALID.split('\n');
  lines[line - 1] = text;
  return lines.join('\n');
}

describe('parseRules', () => {
  test('a valid file parses, and serialises back to the same rules', () => {
    const parsed = parseRules(VALID);
    assert.ok(parsed.ok);
    assert.equal(parsed.rules.version, 4);
    assert.deepEqual(parseRules(serializeRules(parsed.rules)), parsed);
  });

  test('the default rules pass their own validation', () => {
    const parsed = parseRules(serializeRules(DEFAULT_RULES));
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(parsed.rules.rules, DEFAULT_RULES.rules);
  });

  test('broken JSON: the line of the fault', () => {
    const err = rejected(parseRules(withLine(9, '      "reason": "use --force-with-lease",')));
    assert.equal(err.line, 10);
    assert.match(err.reason, /not valid JSON/);
  });

  test('an invalid regular expression: its line, its path, the reason', () => {
    const err = rejected(parseRules(withLine(7, '      "pattern": "git push (",')));
    assert.deepEqual([err.line, err.path], [7, 'rules[0].pattern']);
    assert.match(err.reason, /not a valid regular expression/);
  });

  test('patterns RE2 cannot run in linear time are refused with their line', () => {
    for (const pattern of [
      'git push.*--force(?!-with-lease)',
      '(?<!git )rm',
      '(a)\\\\1',
      '(?<word>a)\\\\k<word>',
    ]) {
      const err = rejected(parseRules(withLine(7, `      "pattern": "${pattern}",`)));
      assert.deepEqual([err.line, err.path], [7, 'rules[0].pattern'], pattern);
      assert.match(err.reason, /RE2|linear time/, pattern);
    }
    assert.match(
      rejected(parseRules(withLine(7, '      "pattern": "x(?=y)",'))).reason,
      /lookahead/,
    );
  });

  test('a file saved with the old default patterns (lookaround) reads with the new ones', () => {
    const old = {
      version: 2,
      rules: [
        {
          id: 'git-push-force',
          kind: 'bash',
          pattern: String.raw`\bgit\s+(?:.*\s)?push\s(?:.*\s)?--force(?!-with-lease)(?![\w-])`,
          action: 'deny',
          reason: 'no force',
        },
      ],
    };
    const parsed = parseRules(JSON.stringify(old, null, 2));
    assert.ok(parsed.ok, JSON.stringify(parsed));
    const current = DEFAULT_RULES.rules.find((r) => r.id === 'git-push-force');
    assert.equal(
      parsed.rules.rules[0]?.kind === 'bash' && parsed.rules.rules[0].pattern,
      current?.kind === 'bash' && current.pattern,
    );
    const renamed = { ...old, rules: [{ ...old.rules[0], id: 'mine' }] };
    assert.equal(parseRules(JSON.stringify(renamed, null, 2)).ok, false);
  });

  test('an unknown kind', () => {
    const err = rejected(parseRules(withLine(13, '      "kind": "secret",')));
    assert.deepEqual([err.line, err.path], [13, 'rules[1].kind']);
  });

  test('a missing reason points at the rule', () => {
    const text = VALID.replace(',\n      "reason": "secrets"', '');
    const err = rejected(parseRules(text));
    assert.deepEqual([err.line, err.path], [11, 'rules[1].reason']);
  });

  test('a misspelt key is not silently ignored', () => {
    const err = rejected(parseRules(withLine(7, '      "patern": "git push",')));
    assert.deepEqual([err.line, err.path], [7, 'rules[0].patern']);
    assert.match(err.reason, /patern/);
  });

  test('a duplicate id', () => {
    const err = rejected(parseRules(withLine(12, '      "id": "no-force",')));
    assert.deepEqual([err.line, err.path], [12, 'rules[1].id']);
    assert.match(err.reason, /duplicate/);
  });

  test('a bad version, a bad action, an empty glob, ~user', () => {
    assert.equal(rejected(parseRules(withLine(2, '  "version": 1.5,'))).path, 'version');
    assert.equal(
      rejected(parseRules(withLine(8, '      "action": "block",'))).path,
      'rules[0].action',
    );
    assert.equal(
      rejected(parseRules(withLine(14, '      "paths": [".env", ""],'))).path,
      'rules[1].paths[1]',
    );
    assert.equal(
      rejected(parseRules(withLine(14, '      "paths": ["~bob/.ssh"],'))).path,
      'rules[1].paths[0]',
    );
  });
});

describe('RulesStore', () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'relais-rules-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  test('no file: the default rules', () => {
    const store = new RulesStore(folder);
    const loaded = store.load();
    assert.ok(loaded.ok);
    assert.equal(loaded.source, 'default');
    assert.equal(store.current, DEFAULT_RULES);
  });

  test('save: validated, version bumped, written atomically, diff returned', () => {
    const store = new RulesStore(folder);
    const saved = store.save(VALID);
    assert.ok(saved.ok, JSON.stringify(saved));
    assert.equal(saved.rules.version, DEFAULT_RULES.version + 1);
    assert.deepEqual(saved.diff.added, ['no-force', 'secrets']);
    assert.equal(saved.diff.removed.length, DEFAULT_RULES.rules.length);
    assert.match(saved.diff.summary, /^v1 → v2: \+2 \(no-force, secrets\)/);
    const onDisk = parseRules(fs.readFileSync(store.filePath, 'utf8'));
    assert.ok(onDisk.ok);
    assert.equal(onDisk.rules.version, 2);
    assert.deepEqual(fs.readdirSync(folder), ['permission-rules.json']);

    const edited = {
      version: 0,
      rules: saved.rules.rules.map((r) => (r.id === 'secrets' ? { ...r, reason: 'keys' } : r)),
    };
    const again = store.save(edited);
    assert.ok(again.ok);
    assert.deepEqual(
      [again.rules.version, again.diff.added, again.diff.removed, again.diff.changed],
      [3, [], [], ['secrets']],
    );
    assert.equal(again.diff.summary, 'v2 → v3: +0, -0, ~1 (secrets)');
  });

  test('an invalid save is rejected with line and reason; the previous rules stay, on disk too', () => {
    const store = new RulesStore(folder);
    assert.ok(store.save(VALID).ok);
    const before = store.current;
    const diskBefore = fs.readFileSync(store.filePath, 'utf8');
    const err = store.save(withLine(7, '      "pattern": "(",'));
    assert.equal(err.ok, false);
    if (err.ok) return;
    assert.deepEqual([err.line, err.path], [7, 'rules[0].pattern']);
    assert.equal(store.current, before);
    assert.equal(fs.readFileSync(store.filePath, 'utf8'), diskBefore);
  });

  test('a file on disk with a lookbehind is refused at load with its line', () => {
    const store = new RulesStore(folder);
    fs.writeFileSync(store.filePath, withLine(7, '      "pattern": "(?<!git )rm -rf",'));
    const err = store.load();
    assert.equal(err.ok, false);
    if (err.ok) return;
    assert.deepEqual([err.line, err.path], [7, 'rules[0].pattern']);
    assert.equal(store.current, DEFAULT_RULES);
  });

  test('an invalid file on disk is rejected at load; the previous rules stay', () => {
    const store = new RulesStore(folder);
    fs.writeFileSync(store.filePath, VALID);
    assert.ok(store.load().ok);
    const before = store.current;
    assert.equal(before.version, 4);
    fs.writeFileSync(store.filePath, withLine(13, '      "kind": "secret",'));
    const err = store.load();
    assert.equal(err.ok, false);
    if (err.ok) return;
    assert.equal(err.line, 13);
    assert.equal(store.current, before);
  });
});
