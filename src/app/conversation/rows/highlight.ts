import type { HighlighterCore, LanguageRegistration, ThemeRegistration } from 'shiki/core';

/**
 * Syntax colouring for fenced code, loaded only when a conversation shows a fenced block. Shiki
 * with its JavaScript regex engine (no WebAssembly, no eval: the console's CSP allows neither),
 * one lazily imported grammar per language actually seen.
 */
type Module<T> = Promise<{ default: T }>;

const GRAMMARS: Record<string, () => Module<LanguageRegistration[]>> = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
};

const ALIASES: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  jsonc: 'json',
  bash: 'shellscript',
  sh: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  console: 'shellscript',
  py: 'python',
  patch: 'diff',
  yml: 'yaml',
  rs: 'rust',
  golang: 'go',
};

/** Longer blocks stay plain: colouring them would hold the page up for little gain. */
const MAX_CHARS = 20_000;
// The high-contrast pair keeps every token at 4.5:1 or more on its own background (set in CSS).
const THEMES = { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' } as const;

/** The grammar a `language-x` class asks for, or null when we carry none for it. */
export function grammarFor(className: string): string | null {
  const name = /^language-(.+)$/.exec(className)?.[1]?.toLowerCase();
  if (!name) return null;
  const resolved = ALIASES[name] ?? name;
  return Object.hasOwn(GRAMMARS, resolved) ? resolved : null;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<string, Promise<void>>();

function core(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
    ]);
    const themes: Module<ThemeRegistration>[] = [
      import('shiki/themes/github-light-high-contrast.mjs'),
      import('shiki/themes/github-dark-high-contrast.mjs'),
    ];
    return createHighlighterCore({
      engine: createJavaScriptRegexEngine({ forgiving: true }),
      themes,
      langs: [],
    });
  })();
  return highlighter;
}

async function withGrammar(name: string): Promise<HighlighterCore> {
  const instance = await core();
  let loading = loaded.get(name);
  if (!loading) {
    loading = instance.loadLanguage(GRAMMARS[name]!());
    loaded.set(name, loading);
  }
  await loading;
  return instance;
}

/** Colours every not yet coloured fenced block under `root`, building spans with DOM calls only. */
export async function highlightBlocks(root: HTMLElement): Promise<void> {
  const blocks = root.querySelectorAll<HTMLElement>('pre > code[class^="language-"]');
  for (const code of blocks) {
    if (code.dataset['highlighted'] !== undefined) continue;
    const grammar = grammarFor(code.className);
    const text = code.textContent ?? '';
    if (!grammar || text.length > MAX_CHARS) continue;
    const instance = await withGrammar(grammar);
    // The block may have been replaced while the grammar loaded.
    if (!code.isConnected || code.textContent !== text) continue;
    const { tokens } = instance.codeToTokens(text.replace(/\n$/, ''), {
      lang: grammar,
      themes: THEMES,
      defaultColor: false,
      // Under load the first lines of a grammar compile slowly; a time limit would leave them grey.
      tokenizeTimeLimit: 0,
      tokenizeMaxLineLength: 2000,
    });
    const fragment = document.createDocumentFragment();
    tokens.forEach((line, index) => {
      if (index > 0) fragment.append('\n');
      for (const token of line) {
        const span = document.createElement('span');
        span.textContent = token.content;
        for (const [property, value] of Object.entries(token.htmlStyle ?? {}))
          if (property.startsWith('--shiki-')) span.style.setProperty(property, value);
        fragment.append(span);
      }
    });
    fragment.append('\n');
    code.replaceChildren(fragment);
    code.dataset['highlighted'] = grammar;
  }
}
