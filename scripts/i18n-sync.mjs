// Keeps the French translation file in step with the console's messages, as `ng extract-i18n`
// writes them (src/locale/messages.xlf): the units in the source's order, each keeping its
// translation, new ones added from a file of translations by id, stale ones dropped.
// Usage: npm run i18n  (extracts, then this with no argument: lists the messages without French)
//        node scripts/i18n-sync.mjs new-translations.json  (JSON: { "<id>": "<target xml>" })
//        node scripts/i18n-sync.mjs --check  (fails, listing them, on missing or stale translations
//        and on pieces of sentences; I18N_SOURCE names another extracted file, as npm test does)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SOURCE = process.env['I18N_SOURCE'] ?? join(root, 'src/locale/messages.xlf');
const FRENCH = join(root, 'src/locale/messages.fr.xlf');

/** The trans-units of an XLIFF 1.2 file by id: the whole unit, its source and its target. */
export function unitsOf(xml) {
  const units = new Map();
  for (const [unit, id] of xml.matchAll(/<trans-unit id="([^"]+)"[^>]*>[\s\S]*?<\/trans-unit>/g)) {
    const source = /<source>([\s\S]*?)<\/source>/.exec(unit)?.[1] ?? '';
    const target = /<target>([\s\S]*?)<\/target>/.exec(unit)?.[1];
    units.set(id, { unit, source, target });
  }
  return units;
}

const source = unitsOf(readFileSync(SOURCE, 'utf8'));
const french = unitsOf(readFileSync(FRENCH, 'utf8'));
const missing = [...source.keys()].filter((id) => french.get(id)?.target === undefined);
const stale = [...french.keys()].filter((id) => !source.has(id));

/**
 * A message that starts or ends with a space, or starts with a comma, semicolon or full stop, is a
 * piece of a sentence the code glues to a value or an element: French could not change its order.
 * Such a sentence is one message, the value a placeholder, the element marked (shared/marked-text.ts).
 */
export const isPiece = (text) => /^\s|\s$|^[,;.]/.test(text);
const pieces = [...source.keys()].filter((id) => isPiece(source.get(id).source));

if (process.argv[2] === '--check') {
  for (const id of missing) console.error(`missing: ${id} ${source.get(id).source}`);
  for (const id of stale) console.error(`stale: ${id} ${french.get(id).source}`);
  for (const id of pieces) console.error(`piece of a sentence: ${id} "${source.get(id).source}"`);
  process.exit(missing.length || stale.length || pieces.length ? 1 : 0);
}

const added = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {};
const body = [...source].map(([id, { unit, source: text }]) => {
  const target = added[id] ?? french.get(id)?.target;
  if (target === undefined) return unit;
  // The French unit keeps the source's text (and its locations) with the target after it.
  return unit.replace(
    `<source>${text}</source>`,
    `<source>${text}</source>\n        <target>${target}</target>`,
  );
});
writeFileSync(
  FRENCH,
  readFileSync(SOURCE, 'utf8')
    .replace('source-language="en"', 'source-language="en" target-language="fr"')
    .replace(/<body>[\s\S]*<\/body>/, `<body>\n      ${body.join('\n      ')}\n    </body>`),
);
const left = [...source.keys()].filter((id) => (added[id] ?? french.get(id)?.target) === undefined);
console.log(
  `${source.size} messages, ${left.length} without French${left.length ? ': ' + left.join(' ') : ''}`,
);
