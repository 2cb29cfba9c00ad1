import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import {
  parsePromptAnswer,
  renderEvent,
  renderPrompt,
  type PromptView,
} from '../../../contract/terminal-lines.js';
import { startDaemonProcess, type DaemonProcess } from '../testing/daemon-process.js';
import { waitFor } from '../testing/harness.js';
import { workdir } from '../testing/fixtures.js';

/** The `relais` command as a person runs it: the bin file of the repository, from any folder. */
const BIN = join(import.meta.dirname, '..', '..', '..', '..', '..', 'bin', 'relais.mjs');

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `relais …` to its end, with pipes, in the given folder. */
function relais(args: string[], home: string, cwd = tmpdir()): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, RELAIS_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** `relais …` in a pseudo-terminal (util-linux `script`), typed into as a person would. */
function relaisInPty(args: string[], home: string) {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: tmpdir(),
    env: { ...process.env, RELAIS_HOME: home, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let raw = '';
  child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    type: (keys: string) => child.stdin.write(keys),
    screen: () => stripVTControlCharacters(raw).replaceAll('\r', ''),
    waitFor: (text: string | RegExp) =>
      waitFor(`${String(text)} on the terminal`, () => {
        const screen = stripVTControlCharacters(raw);
        return typeof text === 'string' ? screen.includes(text) : text.test(screen);
      }).catch((error: Error) => {
        // What the terminal showed says more than the timeout alone.
        const tail = stripVTControlCharacters(raw).replaceAll('\r', '').slice(-1500);
        throw new Error(`${error.message}; the terminal ends with:\n${tail}`);
      }),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

describe('relais command', { timeout: 180_000 }, () => {
  let home: string;
  let daemon: DaemonProcess;
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'relais-term-'));
    daemon = await startDaemonProcess(home);
  });
  after(() => daemon.stop());

  const state = async (id: string) => (await daemon.call('GET', `/api/sessions/${id}`)).body.state;

  it('launches in the current folder, lists, and prints the console URL', async () => {
    const folder = realpathSync(workdir());
    const launched = await relais(['launch', 'first', 'words'], home, folder);
    assert.equal(launched.code, 0, launched.stderr);
    const id = launched.stdout.trim();
    const session = (await daemon.call('GET', `/api/sessions/${id}`)).body;
    assert.equal(session.cwd, folder, 'the current folder by default');
    assert.equal(session.subscription_id, 'demo');
    assert.equal(session.app, 'relais-terminal');
    await waitFor('idle', async () => (await state(id)) === 'idle');
    const listed = await relais(['sessions'], home);
    assert.equal(listed.code, 0);
    assert.match(
      listed.stdout,
      new RegExp(`${id}\\s+idle\\s+claude/\\S+\\s+${folder}\\s+first words`),
    );
    const url = await relais(['url'], home);
    assert.equal(url.stdout, `${daemon.base}/#key=${daemon.key}\n`);
    await daemon.call('POST', `/api/sessions/${id}/stop`);
  });

  it('keys: create prints the secret alone, list shows its use, revoke refuses it', async () => {
    const created = await relais(
      [
        'keys',
        'create',
        'CI runner',
        '-S',
        'launch,read',
        '--scope',
        'steer',
        '-s',
        'demo',
        '--expires',
        '7d',
      ],
      home,
    );
    assert.equal(created.code, 0, created.stderr);
    const secret = created.stdout.trim();
    assert.match(secret, /^relais_[0-9a-z]+_[A-Za-z0-9_-]{43}$/);
    assert.match(created.stderr, /"CI runner": launch read steer on demo, expires 20/);
    const used = await fetch(`${daemon.base}/api/sessions`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(used.status, 200);
    const listed = await relais(['keys', 'list'], home);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(
      listed.stdout,
      /key_\S+\s+CI runner\s+active\s+launch,read,steer\s+expires 20\S+\s+used \S+ from 127\.0\.0\.1/,
    );
    assert.ok(!listed.stdout.includes(secret.slice(-43)), 'the list shows the secret');
    const revoked = await relais(['keys', 'revoke', 'CI runner'], home);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /^Revoked key_\S+ "CI runner" at /);
    const refused = await fetch(`${daemon.base}/api/sessions`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(refused.status, 401);
    assert.match((await relais(['keys', 'list'], home)).stdout, /CI runner\s+revoked/);
    const again = await relais(['keys', 'revoke', 'CI runner'], home);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /No key in use/);
    const bad = await relais(['keys', 'create', 'x', '-S', 'root'], home);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid_request/);
    assert.equal((await relais(['keys', 'create', 'x', '--expires', 'soon'], home)).code, 2);
    assert.equal((await relais(['keys'], home)).code, 2);
  });

  it('attach in a terminal: sends, answers prompts, interrupts, and leaves the session running', async () => {
    const launched = await relais(['launch', '-C', workdir(), 'earlier words'], home);
    const id = launched.stdout.trim();
    await waitFor('idle', async () => (await state(id)) === 'idle');
    const term = relaisInPty(['attach', id], home);
    try {
      await term.waitFor('agent ▸ Demo model here. You said: earlier words');
      await term.waitFor('idle ▸');

      term.type('hello from a shell\r');
      await term.waitFor('agent ▸ Demo model here. You said: hello from a shell');

      term.type('demo:bash echo from-the-terminal\r');
      await term.waitFor('? Bash waits for you');
      await term.waitFor('answer (y/s/n) ▸');
      term.type('maybe\r');
      await term.waitFor('A prompt waits: y, s or n [reason]');
      term.type('n not from here\r');
      await term.waitFor('agent ▸ Command result: not from here');

      term.type('demo:bash echo allowed-here\r');
      await term.waitFor(/\? Bash waits for you[\s\S]*\? Bash waits for you/);
      term.type('y\r');
      await term.waitFor('agent ▸ Command result: allowed-here');

      term.type('demo:ask\r');
      await term.waitFor('2. Blue');
      term.type('2\r');
      await term.waitFor('agent ▸ You answered:');
      await waitFor('idle', async () => (await state(id)) === 'idle');

      term.type('demo:slow 60000\r');
      await waitFor('working', async () => (await state(id)) === 'working');
      term.type('\x03');
      await term.waitFor('Interrupting the turn');
      await waitFor('the interrupted turn', async () => (await state(id)) === 'idle');

      term.type('/interrupt\r');
      await term.waitFor('No turn is running');
      term.type('\x03\x03');
      assert.equal(await term.exited, 0);
      assert.match(term.screen(), /Left the conversation; the session goes on/);
      assert.equal(await state(id), 'idle', 'leaving does not stop the session');
      const decisions = (await daemon.call('GET', `/api/permissions?session=${id}`)).body.items;
      assert.deepEqual(decisions.map((p: { state: string }) => p.state).sort(), [
        'allowed',
        'allowed',
        'denied',
      ]);
    } finally {
      term.kill();
      await daemon.call('POST', `/api/sessions/${id}/stop`);
    }
  });

  it('Ctrl-D leaves at once; without a terminal, typed lines and /quit work too', async () => {
    const launched = await relais(['launch', '-C', workdir(), 'quiet'], home);
    const id = launched.stdout.trim();
    await waitFor('idle', async () => (await state(id)) === 'idle');
    const term = relaisInPty(['attach', id], home);
    await term.waitFor('idle ▸');
    term.type('\x04');
    assert.equal(await term.exited, 0);
    assert.match(term.screen(), /the session goes on/);

    const piped = spawn(process.execPath, [BIN, 'attach', id], {
      env: { ...process.env, RELAIS_HOME: home },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    piped.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    piped.stdin.write('through a pipe\n');
    await waitFor('the reply', () => out.includes('You said: through a pipe'));
    piped.stdin.write('/quit\n');
    assert.equal(await new Promise((resolve) => piped.once('exit', resolve)), 0);
    // The reply's text reaches the pipe before the turn's end is recorded: wait for that end (a
    // session /quit had stopped would not come back idle), then check leaving left it running.
    await waitFor('the turn to end', async () => (await state(id)) !== 'working');
    assert.equal(await state(id), 'idle', 'leaving does not stop the session');
    await daemon.call('POST', `/api/sessions/${id}/stop`);
  });

  it('says plainly what is wrong, with a non-zero exit code', async () => {
    const unknown = await relais(['attach', 'ses_nope'], home);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No session ses_nope/);

    const usage = await relais(['attach'], home);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /relais attach <session>/);
    assert.equal((await relais(['fly'], home)).code, 2);
    assert.equal((await relais(['sessions', '--bogus'], home)).code, 2);

    const noSubscription = await relais(['launch', '-s', 'nope', 'x'], home);
    assert.equal(noSubscription.code, 1);
    assert.match(noSubscription.stderr, /No subscription "nope"/);
    const badFolder = await relais(['launch', '-C', '/proc', 'x'], home);
    assert.equal(badFolder.code, 1);
    assert.match(badFolder.stderr, /invalid_cwd/);

    const empty = mkdtempSync(join(tmpdir(), 'relais-empty-'));
    const notStarted = await relais(['sessions'], empty);
    assert.equal(notStarted.code, 1);
    assert.match(notStarted.stderr, /No daemon record at .*daemon\.json/);

    const wrongKey = mkdtempSync(join(tmpdir(), 'relais-wrong-'));
    writeFileSync(join(wrongKey, 'daemon.json'), JSON.stringify({ base_url: daemon.base }));
    writeFileSync(join(wrongKey, 'api-key'), 'x'.repeat(43));
    const refused = await relais(['sessions'], wrongKey);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused the key in .*api-key/);

    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    writeFileSync(
      join(wrongKey, 'daemon.json'),
      JSON.stringify({ base_url: `http://127.0.0.1:${closedPort}` }),
    );
    const gone = await relais(['attach', 'ses_x'], wrongKey);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /The Relais daemon is not running: nothing answers at/);
  });
});

describe('terminal lines', () => {
  it('renders tool calls, results and turns as short lines', () => {
    assert.equal(
      renderEvent(
        'agent',
        {
          type: 'assistant',
          message: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] },
        },
        'claude',
      ),
      'tool ▸ Bash ls',
    );
    assert.equal(
      renderEvent(
        'agent',
        {
          type: 'user',
          message: { content: [{ type: 'tool_result', content: 'a\nb', is_error: true }] },
        },
        'claude',
      ),
      'result (error) ▸ a',
    );
    assert.equal(renderEvent('agent', { type: 'system', subtype: 'init' }, 'claude'), null);
  });

  it('reads Codex messages the same way', () => {
    const item = (method: string, value: Record<string, unknown>) =>
      renderEvent('agent', { method, params: { item: value } }, 'codex');
    assert.equal(
      renderEvent('host', { method: 'turn/start', params: { input: [{ text: 'hi' }] } }, 'codex'),
      'you ▸ hi',
    );
    assert.equal(item('item/completed', { type: 'agentMessage', text: 'done' }), 'agent ▸ done');
    assert.equal(
      item('item/started', { type: 'commandExecution', command: 'ls' }),
      'tool ▸ Bash ls',
    );
    assert.equal(
      renderEvent(
        'agent',
        { method: 'turn/completed', params: { turn: { status: 'interrupted' } } },
        'codex',
      ),
      '— turn interrupted —',
    );
  });

  it("reads an imported conversation by its agent's format: transcripts and rollouts", () => {
    const rollout = (payload: Record<string, unknown>) =>
      renderEvent('agent', { timestamp: 't', type: 'response_item', payload }, 'codex');
    assert.equal(
      rollout({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix' }] }),
      'you ▸ fix',
    );
    assert.equal(
      rollout({
        type: 'function_call',
        call_id: 'c',
        name: 'shell',
        arguments: '{"command":"ls"}',
      }),
      'tool ▸ shell ls',
    );
    assert.equal(
      renderEvent(
        'agent',
        { type: 'user', sessionId: 's', message: { content: 'from a transcript' } },
        'claude',
      ),
      'you ▸ from a transcript',
    );
    // A line in the other agent's shape is not guessed at: it reads as nothing.
    assert.equal(
      renderEvent('host', { method: 'turn/start', params: { input: [{ text: 'hi' }] } }, 'claude'),
      null,
    );
  });

  it('never lets agent text drive the terminal: escape sequences are shown, not run', () => {
    const hostile = 'ok\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil\r\nnext';
    const line = renderEvent(
      'agent',
      { type: 'assistant', message: { content: [{ type: 'text', text: hostile }] } },
      'claude',
    )!;
    assert.doesNotMatch(line, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    assert.match(line, /^agent ▸ ok\uFFFD\]0;owned\uFFFD\uFFFD\[2J\uFFFD31m\uFFFDevil\nnext$/);
    const prompt: PromptView = {
      id: 'p',
      tool_name: 'Bash\u001b[1A',
      input: { command: 'x' },
      description: null,
      is_question: false,
    };
    assert.doesNotMatch(renderPrompt(prompt), /\u001b/);
  });

  it('reads answers to prompts and questions', () => {
    const bash: PromptView = {
      id: 'p',
      tool_name: 'Bash',
      input: { command: 'ls' },
      description: null,
      is_question: false,
    };
    assert.deepEqual(parsePromptAnswer(bash, ' Y '), { decision: 'allow', scope: 'once' });
    assert.deepEqual(parsePromptAnswer(bash, 's'), { decision: 'allow', scope: 'session' });
    assert.deepEqual(parsePromptAnswer(bash, 'no  use git status'), {
      decision: 'deny',
      message: 'use git status',
    });
    assert.equal(parsePromptAnswer(bash, 'yes please'), null);
    const question: PromptView = {
      ...bash,
      tool_name: 'AskUserQuestion',
      is_question: true,
      input: {
        questions: [
          { question: 'Which color?', options: [{ label: 'Red' }, { label: 'Blue' }] },
          { question: 'Size?', options: [{ label: 'S' }, { label: 'L' }] },
        ],
      },
    };
    assert.deepEqual(parsePromptAnswer(question, '2, 1'), {
      decision: 'allow',
      scope: 'once',
      answers: { 'Which color?': 'Blue', 'Size?': 'S' },
    });
    assert.equal(parsePromptAnswer(question, '3 1'), null, 'no third choice');
    assert.equal(parsePromptAnswer(question, '1'), null, 'one answer per question');
    assert.deepEqual(parsePromptAnswer(question, 'n'), { decision: 'deny' });
  });
});
