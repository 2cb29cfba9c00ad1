import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clipEvent } from './clip.js';
import type { StoredEvent } from './event-store.js';

const event = (data: unknown): StoredEvent => ({
  session_id: 'ses_clip',
  seq: 7,
  received_at_ms: 1,
  source: 'agent',
  data: typeof data === 'string' ? data : JSON.stringify(data),
});

describe('clipEvent', () => {
  it('cuts every long text of a line, wherever it sits, and leaves the rest as it was', () => {
    const line = {
      type: 'user',
      message: { content: [{ type: 'tool_result', content: 'a'.repeat(5000), is_error: false }] },
      tool_use_result: { stdout: 'b'.repeat(3000), stderr: '', code: 0 },
      short: 'kept',
      numbers: [1, 2.5, null, true],
    };
    const clipped = clipEvent(event(line), 300);
    assert.equal(clipped.clipped, true);
    assert.deepEqual(JSON.parse(clipped.data), {
      ...line,
      message: { content: [{ type: 'tool_result', content: 'a'.repeat(300), is_error: false }] },
      tool_use_result: { stdout: 'b'.repeat(300), stderr: '', code: 0 },
    });
    assert.equal(clipped.seq, 7);
  });

  it('a line with no long text is the same event, byte for byte, even when it is long', () => {
    const verbatim = event(`{ "spaced" : [${Array(200).fill('"abc"').join(' , ')}] }`);
    assert.equal(clipEvent(verbatim, 300), verbatim);
    const short = event({ text: 'x'.repeat(100) });
    assert.equal(clipEvent(short, 300), short);
    assert.equal(clipEvent(event({ text: 'x'.repeat(5000) }), undefined).data.length, 5011);
  });

  it('never leaves half of a surrogate pair, and what it writes is JSON', () => {
    for (const max of [299, 300, 301]) {
      const clipped = clipEvent(event({ text: '😀'.repeat(400), quote: '"\\\n'.repeat(200) }), max);
      const data = JSON.parse(clipped.data) as { text: string; quote: string };
      assert.ok(data.text.length <= max && data.text.length >= max - 1, `${max}`);
      assert.doesNotMatch(data.text, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      assert.equal(data.quote, '"\\\n'.repeat(200).slice(0, max));
    }
  });

  it('a stored line that is not JSON, or nested too deep to walk, passes as it is', () => {
    const odd = event('not json '.repeat(100));
    assert.equal(clipEvent(odd, 300), odd);
    const deep = event(`${'['.repeat(50_000)}"${'x'.repeat(1000)}"${']'.repeat(50_000)}`);
    assert.equal(clipEvent(deep, 300), deep);
  });
});
