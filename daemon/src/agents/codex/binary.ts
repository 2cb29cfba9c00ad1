import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const CODEX_PACKAGE = '@openai/codex';

/** The Rust target triple each platform package ships its binary under. */
const TARGETS: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};

/** The installed (pinned) version, or null when the package or its binary is missing. */
export function pinnedCodexVersion(): string | null {
  try {
    return codexBinary().version;
  } catch {
    return null;
  }
}

/**
 * The pinned Codex native binary from the platform package of Relais' own node_modules. Never the
 * JS shim (on Node 20 it stays alive as an extra parent) and never one found on PATH.
 */
export function codexBinary(): { path: string; version: string } {
  const manifest = JSON.parse(
    readFileSync(require.resolve(`${CODEX_PACKAGE}/package.json`), 'utf8'),
  ) as { version: string };
  const platform = `${process.platform}-${process.arch}`;
  const target = TARGETS[platform];
  if (!target) throw new Error(`Codex has no binary for ${platform}`);
  const packageJson = require.resolve(`${CODEX_PACKAGE}-${platform}/package.json`);
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  const path = join(dirname(packageJson), 'vendor', target, 'bin', exe);
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
  } catch {
    throw new Error(`the pinned Codex binary is missing at ${path}`);
  }
  return { path, version: manifest.version };
}
