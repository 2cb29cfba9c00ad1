import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { generateOpenApi } from './write-openapi.js';

describe('OpenAPI document', () => {
  it('the copy kept in the repository matches the routes (run `npm run openapi` after an API change)', async () => {
    const kept = readFileSync(join(process.cwd(), 'openapi.json'), 'utf8');
    assert.equal(kept, await generateOpenApi());
  });
});
