import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import type { Relais } from './fixtures';

export interface ImportedSession {
  id: string;
  agent_session_id: string;
  last_seq: number;
}

/**
 * Runs the demo subscription's history import (a transcript was just written in its folder) and
 * returns the imported conversation of that agent session id.
 */
export async function importDemoConversation(
  relais: Relais,
  request: APIRequestContext,
  agentSessionId: string,
): Promise<ImportedSession> {
  const headers = { Authorization: `Bearer ${relais.key}` };
  const report = await request.post(`${relais.base}/api/subscriptions/demo/import`, { headers });
  expect(report.status()).toBe(200);
  const listed = await (
    await request.get(`${relais.base}/api/sessions?origin=imported&subscription=demo`, { headers })
  ).json();
  const imported = (listed.items as ImportedSession[]).find(
    (s) => s.agent_session_id === agentSessionId,
  );
  expect(imported, `the conversation ${agentSessionId} is imported`).toBeTruthy();
  return imported!;
}

/**
 * Writes a Claude Code transcript's `lines` into the demo subscription's projects, in `project`,
 * as the agent would, and imports it: the conversation of the agent session `agentSessionId`.
 */
export async function importTranscript(
  relais: Relais,
  request: APIRequestContext,
  { agentSessionId, project, lines }: { agentSessionId: string; project: string; lines: string[] },
): Promise<ImportedSession> {
  const headers = { Authorization: `Bearer ${relais.key}` };
  const demo = await (
    await request.get(`${relais.base}/api/subscriptions/demo`, { headers })
  ).json();
  const folder = join(demo.config_dir as string, 'projects', project);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${agentSessionId}.jsonl`), lines.map((line) => `${line}\n`).join(''));
  return importDemoConversation(relais, request, agentSessionId);
}
