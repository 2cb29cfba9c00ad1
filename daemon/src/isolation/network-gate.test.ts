import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MAX_GATE_CONNECTIONS, NetworkGate } from './network-gate.js';

/** Opens `count` connections to the gate and tells how many are still open after a moment. */
async function openConnections(port: number, count: number): Promise<Socket[]> {
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => resolve(socket));
          socket.on('error', () => resolve(socket));
        }),
    ),
  );
  await new Promise((done) => setTimeout(done, 300));
  return sockets;
}

describe('network gate', () => {
  let gate: NetworkGate;
  before(async () => {
    gate = await NetworkGate.open();
  });
  after(() => gate.close());

  it('holds a bounded number of connections: a tool cannot pile up idle ones in the daemon', async () => {
    const sockets = await openConnections(gate.port, MAX_GATE_CONNECTIONS + 20);
    const open = sockets.filter((socket) => !socket.destroyed && !socket.readableEnded);
    try {
      assert.ok(open.length <= MAX_GATE_CONNECTIONS, `${open.length} connections held`);
      assert.ok(open.length >= MAX_GATE_CONNECTIONS - 5, 'the bound is not below what it says');
    } finally {
      for (const socket of sockets) socket.destroy();
      // The gate counts them until it has seen them close.
      await new Promise((done) => setTimeout(done, 300));
    }
  });

  it('a refused request keeps its connection for the next one, and says how long it stays idle', async () => {
    const socket = connect(gate.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`closed after ${JSON.stringify(text)}`)));
      socket.write('GET http://example.invalid/ HTTP/1.1\r\nHost: example.invalid\r\n\r\n');
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 403/);
    assert.match(answer, /keep-alive: timeout=600/i);
  });
});
