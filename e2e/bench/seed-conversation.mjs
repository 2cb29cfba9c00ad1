/**
 * Writes a conversation shaped like `demo:steps 10` runs into a daemon's SQLite file: a copy of a
 * real session's row under a new id, idle, with no agent behind it (the daemon never writes to it,
 * so the seeded events stay exactly as written), and `count` events, the last one being `tail`.
 * With `resultLines`, each tool result is a file read of that many numbered lines (about 80 bytes
 * each), twice in its event as Claude Code writes it (the text for the model and `stdout`): the
 * weight of a real transcript, where a few results make most of the bytes. With `replyLines`, each
 * step's reply is a Markdown list of that many items.
 */
import Database from 'better-sqlite3';

export function seedConversation(
  dbPath,
  { realId, sessionId, count, cwd, tail, resultLines = 0, replyLines = 0 },
) {
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TEMP TABLE seeded AS SELECT * FROM sessions WHERE 0');
  db.prepare('INSERT INTO seeded SELECT * FROM sessions WHERE id = ?').run(realId);
  db.prepare("UPDATE seeded SET id = ?, state = 'idle', pid = NULL, app = 'bench'").run(sessionId);
  db.exec('INSERT INTO sessions SELECT * FROM seeded');
  const insert = db.prepare(
    'INSERT INTO events (session_id, seq, received_at_ms, source, data) VALUES (?, ?, ?, ?, ?)',
  );
  const t0 = Date.now() - count * 200;
  let seq = 0;
  let tool = 0;
  let turns = 0;
  let limit = count - 1; // the last one is the tail marker
  const add = (source, data) => {
    if (seq >= limit) return;
    seq += 1;
    insert.run(sessionId, seq, t0 + seq * 200, source, JSON.stringify(data));
  };
  db.transaction(() => {
    for (let turn = 1; seq < count - 1; turn++) {
      turns = turn;
      addTurn(add, turn, cwd, () => ++tool, { resultLines, replyLines });
    }
    limit = count;
    add('agent', assistant([{ type: 'text', text: tail }]));
  })();
  db.prepare('UPDATE sessions SET last_seq = ?, turns = ? WHERE id = ?').run(seq, turns, sessionId);
  db.close();
}

const assistant = (content) => ({
  type: 'assistant',
  message: { role: 'assistant', content },
  parent_tool_use_id: null,
});

function addTurn(add, turn, cwd, nextTool, lines) {
  add('host', {
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text: `demo:steps 10 (turn ${turn})` }] },
    parent_tool_use_id: null,
  });
  add('relais', { type: 'relais', subtype: 'state', state: 'working' });
  add('agent', {
    type: 'system',
    subtype: 'init',
    cwd,
    model: 'default',
    tools: ['Bash', 'Read', 'Edit'],
    mcp_servers: [],
    permissionMode: 'default',
  });
  for (let step = 1; step <= 10; step++) addStep(add, turn, step, nextTool(), lines);
  add('agent', assistant([{ type: 'text', text: `Finished 10 steps of turn ${turn}.` }]));
  add('agent', {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 1800,
    total_cost_usd: 0.0042,
  });
  add('relais', { type: 'relais', subtype: 'state', state: 'idle' });
}

function addStep(add, turn, step, tool, { resultLines, replyLines }) {
  const id = `toolu_bench_${tool}`;
  const output = resultLines ? fileRead(step, resultLines) : `step ${step}`;
  const command = `sh -c 'echo step ${step}'`;
  const reply = `Step **${step}** of 10 (turn ${turn}).`;
  const items = Array.from(
    { length: replyLines },
    (_, i) => `- item **${i + 1}**: \`src/f${i}.ts\``,
  );
  add(
    'agent',
    assistant([{ type: 'text', text: replyLines ? [reply, '', ...items].join('\n') : reply }]),
  );
  add(
    'agent',
    assistant([
      { type: 'tool_use', id, name: 'Bash', input: { command, description: `Print step ${step}` } },
    ]),
  );
  add('agent', {
    type: 'control_request',
    request_id: `r${tool}`,
    request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command }, tool_use_id: id },
  });
  add('relais', {
    type: 'relais',
    subtype: 'permission_asked',
    permission_id: `p${tool}`,
    tool_name: 'Bash',
    tool_use_id: id,
  });
  add('relais', {
    type: 'relais',
    subtype: 'permission_decided',
    permission_id: `p${tool}`,
    tool_name: 'Bash',
    tool_use_id: id,
    decision: 'allowed',
    decided_by: 'console',
    scope: 'once',
    message: null,
  });
  add('host', {
    type: 'control_response',
    response: { subtype: 'success', request_id: `r${tool}`, response: { behavior: 'allow' } },
  });
  add('agent', {
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: false }],
    },
    tool_use_result: { stdout: output, stderr: '', interrupted: false },
  });
}

const reads = new Map();

/** A numbered file listing of `lines` lines, the same text for a given step (as a reread file). */
function fileRead(step, lines) {
  const key = `${step}:${lines}`;
  if (!reads.has(key)) {
    const text = [];
    for (let line = 1; line <= lines; line++)
      text.push(
        `${String(line).padStart(6)}\t  const value${line} = compute(${line}, 'step ${step}'); // a line of code`,
      );
    reads.set(key, text.join('\n'));
  }
  return reads.get(key);
}

/** A pending Bash prompt for the session, as the daemon stores one (no agent waits on it). */
export function seedPrompt(dbPath, sessionId) {
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 5000');
  const now = Date.now();
  db.prepare(
    `INSERT INTO permission_requests (id, session_id, control_request_id, tool_name, tool_use_id,
       input_json, description, blocked_path, is_question, state, created_at, expires_at)
     VALUES (?, ?, ?, 'Bash', NULL, ?, NULL, NULL, 0, 'pending', ?, ?)`,
  ).run(
    `perm_bench_${sessionId}`,
    sessionId,
    `bench-${sessionId}`,
    JSON.stringify({ command: 'npm test' }),
    new Date(now).toISOString(),
    new Date(now + 3_600_000).toISOString(),
  );
  db.close();
}
