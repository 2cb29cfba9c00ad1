import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const CLAUDE_PACKAGE = '@anthropic-ai/claude-code';

/** The pinned Claude Code binary from Relais' own node_modules (never one found on PATH). */
export function claudeBinary(): { path: string; version: string } {
  const manifestPath = require.resolve(`${CLAUDE_PACKAGE}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    version: string;
    bin: Record<string, string>;
  };
  const relative = manifest.bin['claude'];
  if (!relative) throw new Error(`${CLAUDE_PACKAGE} declares no claude binary`);
  return { path: join(dirname(manifestPath), relative), version: manifest.version };
}
