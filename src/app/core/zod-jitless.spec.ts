import * as z from 'zod';
import { preferJitlessZod } from './zod-jitless';

describe('preferJitlessZod', () => {
  it('sets the config zod reads, also once zod has loaded', () => {
    preferJitlessZod();
    expect(z.config().jitless).toBe(true);
    // An object schema built now parses without compiling: the same answers, no eval probe.
    const schema = z.object({ id: z.string(), n: z.number().int() });
    expect(schema.parse({ id: 'a', n: 1, extra: true })).toEqual({ id: 'a', n: 1 });
    expect(schema.safeParse({ id: 'a', n: 1.5 }).success).toBe(false);
  });
});
