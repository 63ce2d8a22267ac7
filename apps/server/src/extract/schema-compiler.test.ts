import { describe, expect, it } from 'vitest';
import { compileSchema, describeErrors } from './schema-compiler.js';

const problemOf = (schema: unknown) => {
  const compiled = compileSchema(schema);
  return compiled.ok ? null : compiled.problem;
};

describe('compileSchema', () => {
  it('accepts valid schemas, including nullable and unknown keywords', () => {
    expect(
      problemOf({
        type: 'object',
        properties: {
          a: { type: 'string', nullable: true, 'x-note': 1 },
          d: { type: 'string', format: 'date-time' },
        },
        required: ['a'],
      }),
    ).toBeNull();
  });

  it('rejects an invalid JSON Schema with a message naming the keyword and its path', () => {
    const problem = problemOf({ type: 'object', properties: { a: { type: 'string', minLength: 'x' } } });
    expect(problem?.message).toMatch(/minLength must be integer/);
    expect(problem?.path).toEqual(['properties', 'a', 'minLength']);
    expect(problemOf({ type: 'object', properties: { a: { type: 'strng' } } })?.message).toMatch(/type/);
    expect(problemOf([])?.message).toBe('the schema must be a JSON object');
  });

  it('refuses a pattern that needs backtracking, naming where it is', () => {
    const problem = problemOf({
      type: 'object',
      properties: { a: { type: 'object', patternProperties: { '(?=x)': { type: 'string' } } } },
    });
    expect(problem?.message).toMatch(/lookaround or a backreference/);
    expect(problem?.path).toEqual(['properties', 'a', 'patternProperties', '(?=x)']);
    expect(
      problemOf({ type: 'object', properties: { b: { type: 'string', pattern: '(a)\\1' } } })?.path,
    ).toEqual(['properties', 'b', 'pattern']);
  });

  it('matches patterns in linear time: (a+)+$ against a long run of a and a ! (catastrophic when backtracking)', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { t: { type: 'string', pattern: '(a+)+$' } },
    });
    if (!compiled.ok) throw new Error(compiled.problem.message);
    // A backtracking engine needs about 2^n steps here and would not return within the test's time-out.
    expect(compiled.validate({ t: `${'a'.repeat(50_000)}!` })).toBe(false);
    expect(compiled.validate({ t: 'xaaa' })).toBe(true);
  });

  it('scopes $id to the schema: the same $id compiles twice, and a $ref to another schema is refused', () => {
    const first = { $id: 'https://owner-a.example/s', type: 'object', properties: { a: { type: 'string' } } };
    expect(problemOf(first)).toBeNull();
    expect(problemOf({ ...first, properties: { b: { type: 'number' } } })).toBeNull();
    const problem = problemOf({ type: 'object', properties: { x: { $ref: 'https://owner-a.example/s' } } });
    expect(problem?.message).toMatch(/can't resolve reference/);
    // A schema's own parts stay reachable.
    expect(
      problemOf({
        $id: 'https://b.example/s',
        type: 'object',
        definitions: { n: { type: 'number' } },
        properties: { x: { $ref: '#/definitions/n' } },
      }),
    ).toBeNull();
  });

  it('names the failing paths of an output', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' }, n: { type: 'integer' } },
      required: ['n'],
    });
    if (!compiled.ok) throw new Error(compiled.problem.message);
    expect(compiled.validate({ n: 1, when: '2024-01-01T00:00:00Z' })).toBe(true);
    expect(compiled.validate({ n: 1.5, when: 'yesterday' })).toBe(false);
    const message = describeErrors(compiled.validate.errors ?? []);
    expect(message).toContain('/n must be integer');
    expect(message).toContain('/when must match format');
  });
});
