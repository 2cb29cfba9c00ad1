/**
 * Makes an imported conversation of about `count` events the way a user gets one: a Claude Code
 * transcript or a Codex rollout (shaped like real ones, see daemon/src/testing/transcripts.ts) in a
 * subscription's folder, read by the daemon's own import. Its last line is an assistant reply
 * reading `tail`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST } from './bench-support.mjs';

const { claudeLines, codexLines } = await import(
  pathToFileURL(join(DIST, 'daemon/daemon/src/testing/transcripts.js')).href
);

/**
 * Writes the transcript of about `count` events, ending on an assistant reply reading `tail`, as
 * Claude Code keeps it: `<projects>/<project>/<session id>.jsonl`. Returns its session id.
 */
export function writeTranscript(projects, { count, tail, n, project = '-home-me-project' }) {
  const sessionId = `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const conversation = (turns) => ({
    sessionId,
    cwd: '/home/me/project',
    startMs: Date.now() - 86_400_000,
    turns,
    resultBytes: 600,
  });
  const perTurn = claudeLines(conversation(1)).length;
  const lines = claudeLines(conversation(Math.max(1, Math.floor((count - 1) / perTurn))));
  lines.push(
    JSON.stringify({
      type: 'assistant',
      sessionId,
      timestamp: new Date().toISOString(),
      uuid: 'tail',
      requestId: 'req_tail',
      message: {
        id: 'msg_tail',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: tail }],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    }),
  );
  mkdirSync(join(projects, project), { recursive: true });
  writeFileSync(
    join(projects, project, `${sessionId}.jsonl`),
    lines.map((line) => `${line}\n`).join(''),
  );
  return sessionId;
}

/** Calls the daemon's API with its key; a reply that is not a 2xx throws. */
export function apiCaller(base, key) {
  return async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
}

/**
 * Imports an agent's folder (`configDir`: Claude Code's, holding `projects/`, or Codex's, holding
 * `sessions/`) through a subscription of its own; resolves with the imported sessions by their Claude Code session id.
 */
export async function importConfigDir(base, key, configDir, name, agent = 'claude') {
  const call = apiCaller(base, key);
  const subscription = await call('POST', '/api/subscriptions', {
    name,
    agent,
    config_dir: configDir,
  });
  await call('POST', `/api/subscriptions/${subscription.id}/import`);
  const listed = await call(
    'GET',
    `/api/sessions?origin=imported&subscription=${encodeURIComponent(subscription.id)}`,
  );
  return new Map(listed.items.map((item) => [item.agent_session_id, item]));
}

/**
 * Writes the Codex rollout of about `count` events, ending on an assistant reply reading `tail`,
 * as Codex keeps it: `<home>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`. Returns its
 * thread id.
 */
export function writeRollout(home, { count, tail, n }) {
  const threadId = `01a22f72-a128-7311-a06e-${String(n).padStart(12, '0')}`;
  const rollout = (turns) => ({
    threadId,
    cwd: '/home/me/project',
    startMs: Date.now() - 86_400_000,
    turns,
  });
  const perTurn = codexLines(rollout(2)).length - codexLines(rollout(1)).length;
  const lines = codexLines(rollout(Math.max(1, Math.floor((count - 2) / perTurn))));
  lines.push(
    JSON.stringify({
      timestamp: new Date().toISOString(),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: tail }],
      },
    }),
  );
  const day = join(home, 'sessions', '2026', '06', '01');
  mkdirSync(day, { recursive: true });
  writeFileSync(
    join(day, `rollout-2026-06-01T09-00-00-${threadId}.jsonl`),
    lines.map((line) => `${line}\n`).join(''),
  );
  return threadId;
}

/** An imported conversation of about `count` events: a Claude Code transcript, or a Codex rollout. */
export async function seedImported(base, key, { count, tail, n, agent = 'claude' }) {
  const configDir = mkdtempSync(join(tmpdir(), 'relais-bench-imported-'));
  const sessionId =
    agent === 'codex'
      ? writeRollout(configDir, { count, tail, n })
      : writeTranscript(join(configDir, 'projects'), { count, tail, n });
  const imported = await importConfigDir(base, key, configDir, `Imported ${count}`, agent);
  const session = imported.get(sessionId);
  if (!session) throw new Error('the imported conversation is not listed');
  return { id: session.id, events: session.last_seq };
}
