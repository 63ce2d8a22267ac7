import { describe, expect, it } from 'vitest';
import { checkAgainstSchema, validateExtractionSchema } from './schema-validator.js';

describe('validateExtractionSchema', () => {
  it('accepts valid schemas, including nullable and unknown keywords', () => {
    expect(
      validateExtractionSchema({
        type: 'object',
        properties: {
          a: { type: 'string', nullable: true, 'x-note': 1 },
          d: { type: 'string', format: 'date-time' },
        },
        required: ['a'],
      }),
    ).toBeNull();
  });

  it('rejects an invalid JSON Schema with a message naming the keyword', () => {
    const message = validateExtractionSchema({
      type: 'object',
      properties: { a: { type: 'string', minLength: 'x' } },
    });
    expect(message).toMatch(/minLength must be integer/);
    expect(validateExtractionSchema({ type: 'object', properties: { a: { type: 'strng' } } })).toMatch(
      /type/,
    );
    expect(validateExtractionSchema([])).toBe('the schema must be a JSON object');
  });
});

describe('checkAgainstSchema', () => {
  const schema = {
    type: 'object' as const,
    properties: { when: { type: 'string' as const, format: 'date-time' }, n: { type: 'integer' as const } },
    required: ['n'],
  };
  it('passes a valid object and names the failing path otherwise', () => {
    expect(checkAgainstSchema(schema, { n: 1, when: '2024-01-01T00:00:00Z' })).toEqual({ valid: true });
    const bad = checkAgainstSchema(schema, { n: 1.5, when: 'yesterday' });
    expect(bad.valid).toBe(false);
    if (!bad.valid) {
      expect(bad.message).toContain('/n must be integer');
      expect(bad.message).toContain('/when must match format');
    }
  });
});
