import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unwrapShell } from './shell.js';

describe('unwrapShell', () => {
  it('takes the script out of the bash -lc wrapper Codex shows', () => {
    assert.equal(unwrapShell("/bin/bash -lc 'touch codex-made.txt'"), 'touch codex-made.txt');
    assert.equal(unwrapShell("bash -c 'echo hi && ls'"), 'echo hi && ls');
  });

  it('restores quotes escaped inside the single-quoted script', () => {
    assert.equal(unwrapShell(`/bin/bash -lc 'echo '\\''a b'\\'''`), "echo 'a b'");
    assert.equal(unwrapShell(`/bin/bash -lc 'echo '"'"'x'"'"''`), "echo 'x'");
  });

  it('leaves anything else as it is, for the engine to read whole', () => {
    for (const command of [
      'ls -la',
      "/bin/bash -lc 'a' ; rm -rf /",
      "/bin/bash -lc 'unterminated",
      "bash -lc 'a' 'b'",
    ])
      assert.equal(unwrapShell(command), command);
  });
});
