#!/usr/bin/env node
// Structure figures for the architecture note: import cycles (strongly connected groups of files in
// dependency-cruiser's graph), production files over 400 lines and functions over 60 lines.
// Usage: node scripts/structure-figures.mjs [--files] [--functions] [--cycles] (all three by default).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOTS = ['daemon/src', 'contract', 'fakes', 'src', 'bin', 'scripts'];
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;
const root = new URL('..', import.meta.url).pathname;

const wanted = new Set(process.argv.slice(2).map((a) => a.replace(/^--/, '')));
const show = (what) => wanted.size === 0 || wanted.has(what);

function sourceFiles(dir) {
  const out = [];
  let entries;
  try {
    entries = readdirSync(join(root, dir));
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mjs|js)$/.test(name) && !/\.(test|spec)\.ts$/.test(name)) out.push(path);
  }
  return out;
}

function longFunctions(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const lineOf = (pos) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.end) - lineOf(node.getStart(file)) + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

function cycles() {
  const json = execFileSync(
    'npx',
    [
      'depcruise',
      'daemon/src',
      'contract',
      'fakes',
      'src',
      '--no-config',
      '--ts-pre-compilation-deps',
      '--output-type',
      'json',
    ],
    { cwd: root, maxBuffer: 1 << 28, encoding: 'utf8' },
  );
  const modules = JSON.parse(json).modules;
  const edges = new Map(
    modules.map((m) => [
      m.source,
      m.dependencies.map((d) => d.resolved).filter((r) => !r.includes('node_modules')),
    ]),
  );
  // Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) strong(v);
  return groups;
}

if (show('cycles')) {
  const groups = cycles();
  console.log(`Import cycles (strongly connected groups): ${groups.length}`);
  for (const g of groups)
    console.log(`  ${g.length} files: ${g.slice(0, 4).join(', ')}${g.length > 4 ? ', …' : ''}`);
}

const files = ROOTS.flatMap(sourceFiles).sort();
if (show('files')) {
  const long = files
    .map((f) => ({ f, lines: readFileSync(join(root, f), 'utf8').split('\n').length - 1 }))
    .filter((x) => x.lines > MAX_FILE_LINES);
  console.log(`Production files over ${MAX_FILE_LINES} lines: ${long.length}`);
  for (const x of long) console.log(`  ${x.lines}\t${relative('.', x.f)}`);
}
if (show('functions')) {
  const long = files
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) =>
      longFunctions(f, readFileSync(join(root, f), 'utf8')).map((x) => ({ f, ...x })),
    );
  console.log(`Production functions over ${MAX_FUNCTION_LINES} lines: ${long.length}`);
  for (const x of long) console.log(`  ${x.lines}\t${x.f} ${x.name}`);
}
