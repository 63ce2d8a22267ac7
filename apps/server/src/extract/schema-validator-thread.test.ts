import type { ExtractionSchema } from '@webdata/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { ThreadedSchemaValidator } from './schema-validator-thread.js';

/** A schema of many patterned properties: tens of milliseconds to compile. */
function heavySchema(seed: number) {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 60; i++)
    properties[`p${seed}_${i}`] = { type: 'string', pattern: `^(?:[a-z]{2,8}\\s?){1,20}${i}$`, minLength: 1 };
  return { type: 'object', properties };
}

const simple: ExtractionSchema = {
  type: 'object',
  properties: { t: { type: 'string', pattern: '^a+$' } },
  required: ['t'],
};

let validator: ThreadedSchemaValidator | undefined;
afterEach(async () => {
  await validator?.close();
  validator = undefined;
});

describe('ThreadedSchemaValidator', () => {
  it('compiles and checks on its thread, with the path of a refused pattern', async () => {
    validator = new ThreadedSchemaValidator({ budgetMs: 10_000, maxWaitingPerOwner: 16 });
    expect(await validator.checkSchema('a', simple)).toBeNull();
    expect(await validator.checkOutput('a', simple, { t: 'aaa' })).toEqual({ valid: true });
    expect(await validator.checkOutput('a', simple, { t: 'b' })).toEqual({
      valid: false,
      message: 'output does not match the schema: /t must match pattern "^a+$"',
    });
    const problem = await validator.checkSchema('a', {
      type: 'object',
      properties: { t: { type: 'string', pattern: '(\\w+)\\1' } },
    });
    expect(problem?.path).toEqual(['properties', 't', 'pattern']);
  });

  it('gives up on a job over its budget, answers it, and goes on with a fresh thread', async () => {
    validator = new ThreadedSchemaValidator({ budgetMs: 300, maxWaitingPerOwner: 16 });
    // Linear, but seconds over a megabyte of random a/b (and a c, so no literal prefilter answers first).
    const costly: ExtractionSchema = {
      type: 'object',
      properties: { t: { type: 'string', pattern: 'a[ab]{200}c$' } },
    };
    let seed = 1;
    const letter = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed < 2 ** 30 ? 'a' : 'b';
    };
    const slow = validator.checkOutput('a', costly, {
      t: `${Array.from({ length: 1_000_000 }, letter).join('')}c`,
    });
    const next = validator.checkOutput('b', simple, { t: 'aaa' });
    expect(await slow).toEqual({
      valid: false,
      message: 'the schema took longer than 300 ms to compile and check; simplify it',
    });
    expect(await next).toEqual({ valid: true });
  });

  it('takes turns between owners: one owner burst does not hold another owner back', async () => {
    validator = new ThreadedSchemaValidator({ budgetMs: 30_000, maxWaitingPerOwner: 16 });
    const order: string[] = [];
    const burst = Array.from({ length: 8 }, (_, i) =>
      validator!.checkSchema('a', heavySchema(i)).then(() => order.push(`a${i}`)),
    );
    const other = validator.checkSchema('b', simple).then(() => order.push('b'));
    await Promise.all([...burst, other]);
    // b waited for at most the job running and one of a's turns, not for the whole burst.
    expect(order.indexOf('b')).toBeLessThanOrEqual(2);
  });

  it('answers 503 with Retry-After once an owner has too many schemas waiting', async () => {
    validator = new ThreadedSchemaValidator({ budgetMs: 30_000, maxWaitingPerOwner: 2 });
    // The thread is still starting, so both wait.
    const waiting = [0, 1].map((i) => validator!.checkSchema('a', heavySchema(i)));
    const refused = await validator.checkSchema('a', heavySchema(2)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe('unavailable');
    expect((refused as ServiceError).retryAfterSeconds).toBe(1);
    // Another owner is not affected.
    expect(await validator.checkSchema('b', simple)).toBeNull();
    expect(await Promise.all(waiting)).toEqual([null, null]);
  });

  it('checks a schema sent many times at once only once, and remembers the outcome', async () => {
    validator = new ThreadedSchemaValidator({ budgetMs: 30_000, maxWaitingPerOwner: 1 });
    const same = await Promise.all(
      Array.from({ length: 40 }, () => validator!.checkSchema('a', heavySchema(0))),
    );
    expect(same).toEqual(Array(40).fill(null));
    // Remembered: answered without waiting for the thread, even while it is busy with another schema.
    const busy = validator.checkSchema('a', heavySchema(1));
    expect(await validator.checkSchema('a', heavySchema(0))).toBeNull();
    await busy;
  });

  it('answers waiting jobs 503 when closed', async () => {
    validator = new ThreadedSchemaValidator({ budgetMs: 30_000, maxWaitingPerOwner: 16 });
    const pending = [0, 1, 2].map((i) =>
      validator!.checkSchema('a', heavySchema(i)).catch((error: unknown) => error),
    );
    await validator.close();
    for (const outcome of await Promise.all(pending))
      expect((outcome as ServiceError).code).toBe('unavailable');
  });
});
