import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { claudeBinary } from './binary.js';

describe('the pinned Claude Code binary', () => {
  it("is Relais' own exact-version dependency, a real executable from node_modules", () => {
    const { path, version } = claudeBinary();
    const pinned = (
      JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies['@anthropic-ai/claude-code'];
    assert.equal(version, pinned, 'the package.json pin is an exact version');
    assert.match(path, /node_modules\/@anthropic-ai\/claude-code/);
    assert.ok(statSync(path).size > 1024 * 1024, 'not the placeholder script');
    assert.ok((statSync(path).mode & 0o111) !== 0, 'executable');
  });
});
