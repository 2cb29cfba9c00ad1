import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestDaemon } from '../testing/harness.js';

describe('the metrics hear the hub without counting as a client', () => {
  it('a daemon with nobody streaming has no hub listener, so a prompt needing a person is refused', async () => {
    const daemon = await startTestDaemon({ listening: false });
    try {
      assert.equal(daemon.relais.hub.listenerCount, 0, 'the metrics are not a console');
      const seen: string[] = [];
      const stop = daemon.relais.hub.observe((line) => seen.push(line.type));
      daemon.relais.hub.publish({ type: 'snapshot_end' });
      stop();
      assert.deepEqual(seen, ['snapshot_end']);
      assert.equal(daemon.relais.hub.listenerCount, 0);
    } finally {
      await daemon.close();
    }
  });
});
