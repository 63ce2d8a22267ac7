import { describe, expect, it } from 'vitest';
import { fieldsFromSchema, schemaFromFields } from './fields-schema.js';

describe('schemaFromFields', () => {
  it('turns name:type fields into an object schema, optional unless marked with !', () => {
    expect(schemaFromFields('name!:string, price:number; in_stock:bool\nreviews:int')).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          price: { type: 'number' },
          in_stock: { type: 'boolean' },
          reviews: { type: 'integer' },
        },
        required: ['name'],
      },
    });
  });

  it('knows lists, formats, aliases and tolerates spaces and case', () => {
    const parsed = schemaFromFields(' tags : string[] ,link:URL, published:date,at:datetime, score:Float ');
    expect(parsed).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' } },
          link: { type: 'string', format: 'uri' },
          published: { type: 'string', format: 'date' },
          at: { type: 'string', format: 'date-time' },
          score: { type: 'number' },
        },
      },
    });
  });

  it('explains what is wrong and where', () => {
    expect(schemaFromFields('')).toEqual({ ok: false, error: expect.stringContaining('no fields') });
    expect(schemaFromFields('name:string, price:nmber')).toEqual({
      ok: false,
      error: expect.stringMatching(/"price:nmber": unknown type "nmber"; use string, number/),
    });
    expect(schemaFromFields('name string')).toEqual({
      ok: false,
      error: expect.stringContaining('"name string" is not a field'),
    });
    expect(schemaFromFields('1st:string')).toEqual({
      ok: false,
      error: expect.stringContaining('not a field'),
    });
    expect(schemaFromFields('a:string, a:number')).toEqual({ ok: false, error: '"a" is declared twice' });
    const odd = schemaFromFields('constructor:string, __proto__:number');
    expect(odd.ok && JSON.parse(JSON.stringify(odd.schema.properties))).toEqual(
      JSON.parse('{"constructor":{"type":"string"},"__proto__":{"type":"number"}}'),
    );
  });
});

describe('fieldsFromSchema', () => {
  it('writes a flat schema back in the fields syntax, which parses to the same schema', () => {
    const fields = 'name!:string, tags:string[], link:url, n:integer';
    const parsed = schemaFromFields(fields);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(fieldsFromSchema(parsed.schema)).toBe(fields);
  });

  it('gives up on what the syntax cannot say', () => {
    expect(fieldsFromSchema({ type: 'object', properties: { a: { type: 'object', properties: {} } } })).toBe(
      undefined,
    );
    expect(fieldsFromSchema({ type: 'object', properties: { a: { type: 'string', minLength: 3 } } })).toBe(
      undefined,
    );
    expect(fieldsFromSchema({ type: 'array' })).toBe(undefined);
    expect(fieldsFromSchema(null)).toBe(undefined);
  });
});
