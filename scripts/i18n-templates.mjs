// Finds the words of the console's templates that are not marked for translation: a text node
// with letters, a literal shown by an interpolation or a text binding, a text attribute (title,
// placeholder, an accessible name, a label shown on phones). The console's words are `$localize`
// messages in code (bound in templates), inlined per locale at build time: none of Angular's i18n
// runtime ships. Usage: node scripts/i18n-templates.mjs  (lists them; exits 1 when there is any)
//        node scripts/i18n-templates.mjs --fix  (moves each into its component's TEXT, bound)
import { parseTemplate } from '@angular/compiler';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const APP = join(root, 'src/app');

/** Attributes people read or hear. */
const TEXT_ATTRS = new Set([
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
  'label',
  'heading',
  'data-label',
  'caption',
  'emptyText',
]);
/** Words that are the same in every language: names, units, key names. */
const SAME_EVERYWHERE =
  /^(?:Relais|Claude(?: Code)?|Codex|MCP|SQLite|WAL|API|JSON|CSV|Ctrl K|Esc|Enter|OK|PID|URL|ID|P95|\d*\s?(?:s|ms|kB|KiB|MiB|GiB|%))$/;
const hasWords = (text) => /\p{L}{2,}/u.test(text) && !SAME_EVERYWHERE.test(text.trim());

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(html|ts)$/.test(entry.name) && !entry.name.endsWith('.spec.ts')) yield path;
  }
}

/** Every template: its file, its text, where it starts in the file, and its component's file. */
function* templates() {
  for (const file of sourceFiles(APP)) {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.html')) {
      yield { file, template: text, offset: 0, component: file.replace(/\.html$/, '.ts') };
      continue;
    }
    for (const match of text.matchAll(/\btemplate: `([\s\S]*?)`/g)) {
      const offset = match.index + match[0].indexOf('`') + 1;
      yield { file, template: match[1], offset, component: file };
    }
  }
}

/** Literal strings an expression shows (not those it compares or passes along). */
function shownLiterals(ast, found = []) {
  const kind = ast?.constructor?.name;
  if (!ast) return found;
  if (kind === 'ASTWithSource') return shownLiterals(ast.ast, found);
  if (kind === 'LiteralPrimitive' && typeof ast.value === 'string' && hasWords(ast.value))
    found.push(ast);
  if (kind === 'Conditional') {
    shownLiterals(ast.trueExp, found);
    shownLiterals(ast.falseExp, found);
  }
  if (kind === 'Binary' && (ast.operation === '+' || ast.operation === '??')) {
    shownLiterals(ast.left, found);
    shownLiterals(ast.right, found);
  }
  if (kind === 'BindingPipe') shownLiterals(ast.exp, found);
  if (kind === 'ParenthesizedExpression') shownLiterals(ast.expression, found);
  if (kind === 'Interpolation') for (const e of ast.expressions) shownLiterals(e, found);
  return found;
}

/** The unmarked words of one template, each with what `--fix` replaces it by. */
function findingsOf(template) {
  const parsed = parseTemplate(template, 'template.html', { preserveWhitespaces: true });
  const findings = [];
  const visit = (nodes, inKbd) => {
    for (const node of nodes ?? []) {
      const kind = node.constructor.name;
      if (kind === 'Text' && hasWords(node.value) && !inKbd) {
        findings.push({ kind: 'text', span: node.sourceSpan, value: node.value });
      }
      if (kind === 'BoundText' && !inKbd) {
        const interpolation = node.value.ast;
        if (interpolation.strings.some(hasWords))
          findings.push({
            kind: 'interpolation',
            span: node.sourceSpan,
            node: interpolation,
            source: node.value.source,
          });
        else
          for (const literal of shownLiterals(interpolation))
            findings.push({ kind: 'literal', literal });
      }
      for (const attr of node.attributes ?? [])
        if (TEXT_ATTRS.has(attr.name) && hasWords(attr.value))
          findings.push({
            kind: 'attribute',
            span: attr.sourceSpan,
            name: attr.name,
            value: attr.value,
          });
      for (const input of node.inputs ?? []) {
        const name = input.keySpan ? input.name : input.name;
        if (TEXT_ATTRS.has(name) || TEXT_ATTRS.has(name.replace(/^attr\./, '')))
          for (const literal of shownLiterals(input.value))
            findings.push({ kind: 'literal', literal });
      }
      const kbd = inKbd || node.name === 'kbd';
      visit(node.children, kbd);
      visit(node.branches, kbd);
      visit(node.cases, kbd);
      visit(node.groups, kbd);
      if (node.empty) visit([node.empty], kbd);
      for (const part of ['placeholder', 'loading', 'error'])
        if (node[part]) visit([node[part]], kbd);
    }
  };
  visit(parsed.nodes, false);
  return { findings, errors: parsed.errors ?? [] };
}

const words = (text) => text.replace(/\s+/g, ' ').trim();
const literalText = (text) =>
  text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** A key for the message: its first words in camelCase, unique in the component. */
function keyFor(text, used) {
  const parts = words(text)
    .normalize('NFD')
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .split(' ')
    .filter(Boolean)
    .slice(0, 4);
  let key =
    parts
      .map((p, i) => (i ? p[0].toUpperCase() + p.slice(1).toLowerCase() : p.toLowerCase()))
      .join('') || 'text';
  if (/^\d/.test(key)) key = 'n' + key;
  let candidate = key;
  for (let n = 2; used.has(candidate); n++) candidate = key + n;
  used.add(candidate);
  return candidate;
}

const placeholderName = (source, taken) => {
  const ids = source.replace(/'[^']*'/g, '').match(/[A-Za-z_]\w*/g) ?? ['value'];
  let name =
    ids.filter((id) => !['length', 'get', 'id', 'join', 'toFixed'].includes(id)).pop() ?? 'value';
  name = name.replace(/^[A-Z]/, (c) => c.toLowerCase());
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = name + n;
  taken.add(candidate);
  return candidate;
};

/** Replaces one finding in the template; returns the edit and the TEXT entry it needs. */
function fixOf(finding, template, messages, used) {
  const message = (text) => {
    const existing = [...messages].find(([, m]) => m.text === text && !m.args);
    if (existing) return existing[0];
    const key = keyFor(text, used);
    messages.set(key, { text });
    return key;
  };
  if (finding.kind === 'text') {
    const raw = template.slice(finding.span.start.offset, finding.span.end.offset);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    const key = message(words(finding.value));
    return {
      start: finding.span.start.offset + lead,
      end: finding.span.start.offset + lead + body.length,
      text: `{{ t.${key} }}`,
    };
  }
  if (finding.kind === 'attribute') {
    const key = message(words(finding.value));
    const bound =
      finding.name.startsWith('aria-') || finding.name.startsWith('data-')
        ? `attr.${finding.name}`
        : finding.name;
    return {
      start: finding.span.start.offset,
      end: finding.span.end.offset,
      text: `[${bound}]="t.${key}"`,
    };
  }
  if (finding.kind === 'literal') {
    const { start, end } = finding.literal.sourceSpan;
    const key = message(finding.literal.value);
    return { start, end, text: `t.${key}` };
  }
  // Text with interpolations: one message with a placeholder per expression.
  const raw = template.slice(finding.span.start.offset, finding.span.end.offset);
  const lead = raw.length - raw.trimStart().length;
  const body = raw.trim();
  const { strings, expressions } = finding.node;
  const taken = new Set();
  const args = expressions.map((e) => {
    const source = template.slice(e.sourceSpan.start, e.sourceSpan.end).trim();
    return { name: placeholderName(source.split('|')[0], taken), source };
  });
  let text = '';
  strings.forEach((s, i) => {
    text += literalText(
      i === 0 ? s.trimStart() : i === strings.length - 1 ? s.trimEnd() : s,
    ).replace(/\s+/g, ' ');
    if (i < args.length) text += `\${${args[i].name}}:${args[i].name}:`;
  });
  const key = keyFor(strings.join(' '), used);
  messages.set(key, { text, args: args.map((a) => a.name) });
  const call = `t.${key}(${args.map((a) => (/\|/.test(a.source) ? `(${a.source})` : a.source)).join(', ')})`;
  return {
    start: finding.span.start.offset + lead,
    end: finding.span.start.offset + lead + body.length,
    text: `{{ ${call} }}`,
  };
}

function entryOf(key, { text, args }) {
  if (!args) return `  ${key}: $localize\`${literalText(text)}\`,`;
  return `  ${key}: (${args.map((a) => `${a}: unknown`).join(', ')}) => $localize\`${text}\`,`;
}

/** Adds the component's TEXT (or adds to it) and the `t` its template reads. */
function addText(componentFile, messages) {
  let ts = readFileSync(componentFile, 'utf8');
  const entries = [...messages].map(([key, m]) => entryOf(key, m)).join('\n');
  if (/\nconst TEXT = \{\n/.test(ts)) {
    ts = ts.replace(
      /\nconst TEXT = \{\n([\s\S]*?)\n\};\n/,
      (all, body) => `\nconst TEXT = {\n${body}\n${entries}\n};\n`,
    );
  } else {
    const at = ts.search(/\n(?:\/\*\*[\s\S]*?\*\/\n)?@Component\(/);
    if (at < 0) throw new Error(`no @Component in ${componentFile}`);
    ts = `${ts.slice(0, at)}\n\n/** The component's words, in the console's language. */\nconst TEXT = {\n${entries}\n};\n${ts.slice(at)}`;
    ts = ts.replace(
      /(\n@Component\([\s\S]*?\n\}\)\nexport class \w+[^{]*\{\n)/,
      `$1  protected readonly t = TEXT;\n`,
    );
    if (!ts.includes('protected readonly t = TEXT;'))
      throw new Error(`no class after @Component in ${componentFile}`);
  }
  writeFileSync(componentFile, ts);
}

const fix = process.argv.includes('--fix');
let count = 0;
const usedByComponent = new Map();
for (const { file, template, offset, component } of templates()) {
  const { findings, errors } = findingsOf(template);
  if (errors.length) console.error(`${relative(root, file)}: ${errors.map(String).join('; ')}`);
  if (!findings.length) continue;
  if (!fix) {
    for (const f of findings) {
      const at = f.span?.start ?? { line: undefined };
      const line =
        template.slice(0, f.span?.start.offset ?? f.literal.sourceSpan.start).split('\n').length +
        (offset ? readFileSync(file, 'utf8').slice(0, offset).split('\n').length - 1 : 0);
      console.log(
        `${relative(root, file)}:${line}: ${f.kind} ${JSON.stringify(words(f.value ?? f.source ?? f.literal?.value ?? ''))}`,
      );
      void at;
    }
    count += findings.length;
    continue;
  }
  const used = usedByComponent.get(component) ?? new Set(['t']);
  usedByComponent.set(component, used);
  const existing =
    readFileSync(component, 'utf8').match(/\nconst TEXT = \{\n([\s\S]*?)\n\};\n/)?.[1] ?? '';
  for (const [, key] of existing.matchAll(/^ {2}(\w+):/gm)) used.add(key);
  const messages = new Map();
  const edits = findings
    .map((f) => fixOf(f, template, messages, used))
    .sort((a, b) => b.start - a.start);
  let fixed = template;
  for (const edit of edits) fixed = fixed.slice(0, edit.start) + edit.text + fixed.slice(edit.end);
  const whole = readFileSync(file, 'utf8');
  writeFileSync(file, whole.slice(0, offset) + fixed + whole.slice(offset + template.length));
  addText(component, messages);
  count += findings.length;
  console.log(`${relative(root, file)}: ${findings.length} marked`);
}
if (!fix) {
  console.log(`${count} unmarked`);
  process.exit(count ? 1 : 0);
}
