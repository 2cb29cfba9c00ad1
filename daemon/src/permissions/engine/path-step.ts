import path from 'node:path';
import { isWithin } from './glob.js';
import { PathResolutionError, canonicalize } from './realpath.js';
import type { PathRef } from './tools.js';
import type { AccessKind, Decision, EngineFs } from './types.js';

/** A path a request touches, resolved. */
export interface CheckedPath {
  access: AccessKind;
  origin: string;
  raw: string;
  /** `raw` resolved lexically against its cwd (what the text says). */
  lexical: string;
  /** Canonical real path (what the filesystem says). */
  real: string;
  /** The canonical trusted folder holding `real`. */
  root: string;
  /** The trusted folder (as given) holding `lexical`, if any. */
  lexicalRoot: string | null;
}

export interface PathEnv {
  fs: EngineFs;
  /** Trusted folders as given (absolute, normalised) and canonical. */
  trustedRaw: readonly string[];
  trustedReal: readonly string[];
  /** The daemon's data folder as given (normalised) and canonical. */
  dataDirRaw: string;
  dataDirReal: string;
}

export interface PathOutcome {
  denial: Decision | null;
  checked: CheckedPath[];
  /** Why an otherwise allowed request should still go to a person. */
  caution: string | null;
}

/** Character devices a shell redirection may name without touching any file. */
const DEVICES = new Set([
  '/dev/null',
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
]);

function isDevice(p: string): boolean {
  return DEVICES.has(p) || /^\/dev\/fd\/\d+$/.test(p);
}

const VERB: Readonly<Record<AccessKind, string>> = {
  read: 'read',
  write: 'write',
  delete: 'delete',
};

function deny(reason: string): Decision {
  return { decision: 'deny', step: 'path', rule: null, reason };
}

export function checkPaths(
  refs: readonly PathRef[],
  env: PathEnv,
  fromShell: boolean,
): PathOutcome {
  const checked: CheckedPath[] = [];
  let caution: string | null = null;
  for (const ref of refs) {
    const label = `${ref.origin}: ${VERB[ref.access]} "${ref.raw}"`;
    if (ref.raw === '') return { denial: deny(`${ref.origin}: empty path`), checked, caution };
    if (ref.raw.includes('\0'))
      return { denial: deny(`${ref.origin}: path contains a NUL byte`), checked, caution };
    if (ref.dynamic) caution ??= `${label}…: the full path is not known from the text`;
    for (const cwd of ref.cwds) {
      const lexical = path.resolve(cwd, ref.raw);
      if (fromShell && isDevice(lexical)) continue;
      const result = checkOne(ref, cwd, lexical, env, label);
      if ('denial' in result) return { denial: result.denial, checked, caution };
      checked.push(result.path);
      if (result.caution !== null) caution ??= result.caution;
    }
  }
  return { denial: null, checked, caution };
}

type OneResult = { denial: Decision } | { path: CheckedPath; caution: string | null };

function checkOne(
  ref: PathRef,
  cwd: string,
  lexical: string,
  env: PathEnv,
  label: string,
): OneResult {
  const zeroAccess = `${label}: the daemon's data folder is zero-access`;
  if (isWithin(lexical, env.dataDirRaw) || isWithin(lexical, env.dataDirReal))
    return { denial: deny(zeroAccess) };
  let resolved;
  try {
    resolved = canonicalize(env.fs, cwd, ref.raw, ref.access !== 'delete');
  } catch (err: unknown) {
    if (err instanceof PathResolutionError)
      return { denial: deny(`${label}: cannot be resolved (${err.message})`) };
    throw err;
  }
  const real = resolved.real;
  if (isWithin(real, env.dataDirReal)) return { denial: deny(zeroAccess) };
  const root = env.trustedReal.find((t) => isWithin(real, t));
  const lexicalRoot = env.trustedRaw.find((t) => isWithin(lexical, t)) ?? null;
  if (root === undefined) {
    const how =
      lexicalRoot !== null || resolved.viaLink
        ? `goes through a symbolic link that leads out of the trusted folders (to ${real})`
        : `resolves to ${real}, outside the trusted folders`;
    return { denial: deny(`${label}: ${how}`) };
  }
  const checked: CheckedPath = {
    access: ref.access,
    origin: ref.origin,
    raw: ref.raw,
    lexical,
    real,
    root,
    lexicalRoot,
  };
  if (!resolved.exists || ref.access === 'delete') return { path: checked, caution: null };
  const st = env.fs.stat(real);
  const links = Number(st.nlink);
  if (!st.isFile() || links <= 1) return { path: checked, caution: null };
  // A hard link cannot be told from the original: its other names may lie outside the trusted
  // folders or inside a circle, so neither reading nor writing it is decided from this name.
  const why =
    ref.access === 'write'
      ? 'writing it would change the other names too'
      : 'its other names may be outside the trusted folders or in a protected circle';
  return {
    denial: deny(`${label}: the file has ${links} hard links; ${why}, so it is refused`),
  };
}

/** Trusted folders and data folder, canonicalised once per request. */
export function pathEnv(
  fs: EngineFs,
  cwd: string,
  trusted: readonly string[],
  dataDir: string,
): PathEnv {
  const trustedRaw = trusted.map((t) => path.resolve(cwd, t));
  const dataDirRaw = path.resolve(dataDir);
  return {
    fs,
    trustedRaw,
    trustedReal: trustedRaw.map((t) => canonicalize(fs, '/', t).real),
    dataDirRaw,
    dataDirReal: canonicalize(fs, '/', dataDirRaw).real,
  };
}
