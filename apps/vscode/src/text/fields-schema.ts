/** A JSON Schema for extraction as the fields syntax produces it. */
export interface FieldsSchema {
  type: 'object';
  properties: Record<string, FieldSchema>;
  required?: string[];
}

interface FieldSchema {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  format?: string;
  items?: FieldSchema;
}

/** The outcome of {@link schemaFromFields}: a schema, or what is wrong and where. */
export type FieldsParse = { ok: true; schema: FieldsSchema } | { ok: false; error: string };

const TYPES: Record<string, FieldSchema> = {
  string: { type: 'string' },
  str: { type: 'string' },
  text: { type: 'string' },
  number: { type: 'number' },
  num: { type: 'number' },
  float: { type: 'number' },
  integer: { type: 'integer' },
  int: { type: 'integer' },
  boolean: { type: 'boolean' },
  bool: { type: 'boolean' },
  url: { type: 'string', format: 'uri' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
};

const TYPE_NAMES = 'string, number, integer, boolean, url, date, datetime (add [] for a list)';
const FIELD = /^([A-Za-z_][\w-]*)(!?)\s*:\s*([A-Za-z]+)\s*(\[\])?$/;

/**
 * Turns fields typed as `name:type` into an extraction schema. Fields are
 * separated by commas, semicolons or new lines; `name!:type` marks a field
 * required (a page without it fails, so fields are optional by default);
 * `type[]` is a list of that type.
 *
 * @example
 * ```ts
 * schemaFromFields('name!:string, price:number, tags:string[]');
 * // { ok: true, schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' },
 * //   tags: { type: 'array', items: { type: 'string' } } }, required: ['name'] } }
 * ```
 */
export function schemaFromFields(input: string): FieldsParse {
  const parts = input
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return { ok: false, error: 'no fields: type them as name:type, e.g. title:string' };
  const properties = new Map<string, FieldSchema>();
  const required: string[] = [];
  for (const part of parts) {
    const match = FIELD.exec(part);
    if (!match) {
      return {
        ok: false,
        error: `"${part}" is not a field: write name:type (a name of letters, digits, _ or -; then a type: ${TYPE_NAMES})`,
      };
    }
    const [, name, bang, typeName, list] = match as unknown as [string, string, string, string, string?];
    const type = TYPES[typeName.toLowerCase()];
    if (!type) return { ok: false, error: `"${part}": unknown type "${typeName}"; use ${TYPE_NAMES}` };
    if (properties.has(name)) return { ok: false, error: `"${name}" is declared twice` };
    properties.set(name, list ? { type: 'array', items: { ...type } } : { ...type });
    if (bang) required.push(name);
  }
  // fromEntries defines own properties, so a field named `__proto__` stays a field.
  const schema: FieldsSchema = { type: 'object', properties: Object.fromEntries(properties) };
  if (required.length > 0) schema.required = required;
  return { ok: true, schema };
}

/**
 * The fields syntax of a schema, when it can be written in it (a flat object
 * of the types above); used to show a recent schema in its short form.
 *
 * @example
 * ```ts
 * fieldsFromSchema({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }); // 'name!:string'
 * ```
 */
export function fieldsFromSchema(schema: unknown): string | undefined {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields: string[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const isList = isRecord(property) && property.type === 'array';
    const typeName = typeNameOf(isList ? property.items : property);
    if (!typeName || !/^[A-Za-z_][\w-]*$/.test(name)) return undefined;
    fields.push(`${name}${required.has(name) ? '!' : ''}:${typeName}${isList ? '[]' : ''}`);
  }
  return fields.join(', ');
}

function typeNameOf(property: unknown): string | undefined {
  if (!isRecord(property)) return undefined;
  const keys = Object.keys(property).sort().join(',');
  if (keys === 'type') {
    return ['string', 'number', 'integer', 'boolean'].includes(String(property.type))
      ? String(property.type)
      : undefined;
  }
  if (keys === 'format,type' && property.type === 'string') {
    return { uri: 'url', date: 'date', 'date-time': 'datetime' }[String(property.format)];
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
