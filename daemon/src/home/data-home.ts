import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes a file atomically (temp file + rename) with the given mode. */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, content, { mode });
  chmodSync(temp, mode);
  renameSync(temp, path);
}

export function ensureDataHome(home: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
}

/** Reads the API key, creating a 256-bit one (0600, atomic) on first start. */
export function loadOrCreateApiKey(home: string): string {
  const file = join(home, 'api-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length >= 32) return key;
  }
  const key = randomBytes(32).toString('base64url');
  writeFileAtomic(file, `${key}\n`, 0o600);
  return key;
}

export interface DaemonRecord {
  pid: number;
  port: number;
  base_url: string;
  started_at: string;
}

export function writeDaemonRecord(home: string, record: DaemonRecord): void {
  writeFileAtomic(join(home, 'daemon.json'), `${JSON.stringify(record, null, 2)}\n`, 0o600);
}
