import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERRORS } from './errors.js';

describe("the console's translated API errors", () => {
  it('has a sentence for every error code of the API', () => {
    const source = readFileSync(join(process.cwd(), 'src/app/core/error-messages.ts'), 'utf8');
    const missing = Object.keys(ERRORS).filter(
      (code) => !new RegExp(`^  ${code}: \\$localize\``, 'm').test(source),
    );
    assert.deepEqual(missing, []);
  });
});
