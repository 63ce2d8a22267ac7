import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toExtractionJsonSchema } from './json-schema.js';

describe('toExtractionJsonSchema', () => {
  const Event = z.object({
    name: z.string(),
    starts: z.date(),
    ends: z.date().nullable().optional(),
    sessions: z.array(z.object({ at: z.date(), room: z.string() })),
    stamp: z.iso.datetime(),
  });

  it('sends z.date() as a date-time string, with no mark of its own on the wire', () => {
    const { jsonSchema } = toExtractionJsonSchema(Event);
    const properties = jsonSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.starts).toEqual({ type: 'string', format: 'date-time' });
    expect(JSON.stringify(jsonSchema)).not.toContain('x-webdata');
    expect(jsonSchema.$schema).toBeUndefined();
  });

  it('coerces the strings where the zod schema has a date, and only there', () => {
    const { coerce } = toExtractionJsonSchema(Event);
    const data = {
      name: '2026-01-01T00:00:00Z',
      starts: '2026-11-22T10:15:30.123Z',
      ends: null,
      sessions: [{ at: '2026-11-22T11:00:00Z', room: 'A' }],
      stamp: '2026-11-22T10:15:30Z',
    };
    const parsed = Event.parse(coerce(data));
    expect(parsed.starts).toEqual(new Date('2026-11-22T10:15:30.123Z'));
    expect(parsed.sessions[0]?.at).toBeInstanceOf(Date);
    expect(parsed.ends).toBeNull();
    expect(parsed.name).toBe('2026-01-01T00:00:00Z'); // a string field stays a string
    expect(parsed.stamp).toBe('2026-11-22T10:15:30Z');
    // Not a date: left as it is, so the schema reports it instead of taking an Invalid Date.
    expect(Event.safeParse(coerce({ ...data, starts: 'soon' })).success).toBe(false);
  });

  it('leaves data alone when the schema has no dates', () => {
    const { coerce } = toExtractionJsonSchema(z.object({ a: z.string() }));
    const data = { a: '2026-11-22T10:15:30Z' };
    expect(coerce(data)).toBe(data);
  });
});
