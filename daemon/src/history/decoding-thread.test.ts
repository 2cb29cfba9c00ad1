import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { claudeLines, codexLines } from '../testing/transcripts.js';
import { ChunkDecoder, type DecodedChunk, type DecodedLine } from './chunk-decoder.js';
import { DecodingThread, type ChunkDecoding } from './decoding-thread.js';
import { sharedBuffer } from './transcript-file.js';

const CONVERSATION = 'eeeeeeee-5555-4555-8555-555555555555';

/** A transcript with what a hostile or damaged one holds, and a last line still being written. */
function hostileFile(agent: 'claude' | 'codex'): Buffer {
  const lines =
    agent === 'claude'
      ? claudeLines({ sessionId: CONVERSATION, cwd: '/p', startMs: 0, turns: 4 })
      : codexLines({ threadId: CONVERSATION, cwd: '/p', startMs: 0, turns: 4 });
  return Buffer.concat([
    Buffer.from(`${lines.slice(0, 5).join('\n')}\n\n   \nnot json {\n`),
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d, 0x0a]),
    Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}\n`),
    Buffer.from(`${lines.slice(5).join('\n')}\n${lines[0]!.slice(0, 40)}`),
  ]);
}

interface Read {
  lines: DecodedLine[];
  consumed: number;
  tooLong: (number | null)[];
  end: unknown;
}

/** Decodes `bytes` chunk by chunk (each read into a shared buffer, as the importer reads). */
async function readAll(decoding: ChunkDecoding, bytes: Buffer, chunkBytes: number): Promise<Read> {
  const read: Read = { lines: [], consumed: 0, tooLong: [], end: null };
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const piece = bytes.subarray(at, at + chunkBytes);
    const chunk = sharedBuffer(piece.length);
    piece.copy(chunk);
    const last = at + chunkBytes >= bytes.length;
    const { finished, lines, consumed, tooLong }: DecodedChunk = await decoding.decode(
      chunk,
      at,
      last ? { final: true } : null,
    );
    chunk.fill(0); // the thread must not see a buffer after its answer
    read.lines.push(...lines);
    read.consumed = consumed;
    read.tooLong.push(tooLong);
    if (finished) read.end = finished;
  }
  return read;
}

describe("the history import's decoding thread", () => {
  for (const agent of ['claude', 'codex'] as const) {
    test(`reads ${agent}'s lines as the importer's own thread does, however the file is cut`, async () => {
      const bytes = hostileFile(agent);
      const alone = new ChunkDecoder(agent, null, 0).decode(bytes, 0, { final: true });
      assert.ok(alone.lines.length >= 10, 'the file has lines');
      assert.equal(alone.lines.filter((line) => !line.valid).length, 1, 'one is not JSON');
      assert.ok(
        alone.lines.some((line) => line.text.includes('\ufffd')),
        'bad UTF-8 replaced',
      );
      assert.ok(
        alone.finished!.responses.length + alone.lines.filter((l) => l.facts.responses).length > 0,
      );
      assert.equal(alone.consumed, bytes.lastIndexOf(10) + 1, 'the unfinished line waits');
      const thread = new DecodingThread();
      try {
        for (const chunkBytes of [7, 1000, bytes.length]) {
          const read = await readAll(thread.open(agent, null, 0), bytes, chunkBytes);
          assert.deepEqual(read.lines, alone.lines, `in chunks of ${chunkBytes} bytes`);
          assert.equal(read.consumed, alone.consumed);
          assert.deepEqual(read.end, alone.finished);
        }
      } finally {
        await thread.close();
      }
    });
  }

  test('a read goes on from a saved state and offset', async () => {
    const bytes = hostileFile('claude');
    const cut = bytes.indexOf(10, bytes.length >> 2) + 1;
    const first = new ChunkDecoder('claude', null, 0).decode(bytes.subarray(0, cut), 0);
    const whole = new ChunkDecoder('claude', null, 0).decode(bytes, 0, { final: true });
    const thread = new DecodingThread();
    try {
      const decoding = thread.open('claude', first.state, cut);
      const rest = await decoding.decode(bytes.subarray(cut), cut, { final: true });
      assert.deepEqual([...first.lines, ...rest.lines], whole.lines);
      assert.deepEqual(rest.finished, whole.finished);
    } finally {
      await thread.close();
    }
  });

  test("a thread that dies fails the reads under way; later ones decode in the importer's thread", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relais-decoding-'));
    const script = join(dir, 'dies.mjs');
    writeFileSync(
      script,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n",
    );
    const thread = new DecodingThread(pathToFileURL(script));
    const bytes = hostileFile('claude');
    try {
      await assert.rejects(thread.open('claude', null, 0).decode(bytes, 0, { final: true }));
      const again = await thread.open('claude', null, 0).decode(bytes, 0, { final: true });
      assert.deepEqual(
        again.lines,
        new ChunkDecoder('claude', null, 0).decode(bytes, 0, { final: true }).lines,
      );
    } finally {
      await thread.close();
    }
  });
});
