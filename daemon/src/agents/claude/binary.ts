import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const CLAUDE_PACKAGE = '@anthropic-ai/claude-code';

/** Anything smaller is the package's placeholder, left when its install script has not run. */
const MIN_BINARY_BYTES = 1024 * 1024;

function realBinary(path: string): boolean {
  try {
    return statSync(path).size >= MIN_BINARY_BYTES;
  } catch {
    return false; // Missing: try the next place.
  }
}

/**
 * The pinned Claude Code binary from Relais' own node_modules (never one found on PATH): the
 * package's `bin`, or, when its install script did not run, the platform package it ships in.
 */
export function claudeBinary(): { path: string; version: string } {
  const manifestPath = require.resolve(`${CLAUDE_PACKAGE}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    version: string;
    bin: Record<string, string>;
  };
  const candidates: string[] = [];
  const bin = manifest.bin['claude'];
  if (bin) candidates.push(join(dirname(manifestPath), bin));
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  for (const suffix of ['', '-musl']) {
    try {
      const platform = require.resolve(
        `${CLAUDE_PACKAGE}-${process.platform}-${process.arch}${suffix}/package.json`,
      );
      candidates.push(join(dirname(platform), exe));
    } catch {
      // That platform package is not installed here.
    }
  }
  const path = candidates.find(realBinary);
  if (!path)
    throw new Error(`the pinned Claude Code binary is missing; looked at ${candidates.join(', ')}`);
  return { path, version: manifest.version };
}

/** The pinned Claude Code's version, or null when it is not installed (the card says so). */
export function pinnedClaudeVersion(): string | null {
  try {
    return claudeBinary().version;
  } catch {
    return null; // Not installed: the card and diagnostics say so.
  }
}
