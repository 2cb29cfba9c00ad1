import { Session } from '../../../contract/api';

/** A session that fits the contract, for specs: each spec sets what it is about. */
export function sampleSession(overrides: Partial<Session> = {}): Session {
  return {
    id: 's1',
    subscription_id: 'demo',
    agent: 'claude',
    model: 'm',
    cwd: '/w',
    effort: null,
    permission_mode: 'write',
    app: 'a',
    title: null,
    state: 'idle',
    end_reason: null,
    end_detail: null,
    agent_session_id: null,
    origin: 'relais',
    transcript_bytes: null,
    isolated: true,
    confined_without_asking: false,
    pid: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ended_at: null,
    deadline_at: '2026-01-01T01:00:00.000Z',
    max_deadline_at: '2026-01-02T00:00:00.000Z',
    last_seq: 1,
    queue_length: 0,
    pending_permissions: 0,
    turns: 0,
    ...overrides,
  };
}
