/**
 * The hostile requests of issue 16's attack, shared by the tests that show
 * one request cannot starve or bloat the server (`starvation.test.ts`,
 * `schema-memory.test.ts`) and by the bench that measures it from outside
 * the server's process (`bench/attack-bench.ts`).
 */

/** The attack's page title: 28 a's and a `!` (2^28 backtracking steps for `(a+)+$`). */
export const REDOS_TITLE = `${'a'.repeat(28)}!`;

/** The catastrophic pattern of finding 1, asked of the title of a {@link REDOS_TITLE} page. */
export const REDOS_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string', pattern: '(a+)+$' } },
  required: ['title'],
};

/** The fixture pages the hostile requests point at: the ReDoS page and a plain one. */
export const HOSTILE_PAGES = {
  '/redos': {
    body: `<html><head><title>${REDOS_TITLE}</title></head><body><h1>${REDOS_TITLE}</h1></body></html>`,
  },
  '/plain': { body: '<html><head><title>Plain</title></head><body><h1>Plain page</h1></body></html>' },
};

/** A large schema (about 40 KB) of patterned, formatted properties; `seed` makes it distinct. */
export function largeSchema(seed: number) {
  const group = (g: number) =>
    Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `s${seed}_g${g}_p${i}`,
        { type: 'string', pattern: `^[a-z]{1,30}(?:-[a-z0-9]{1,20}){0,6}$`, maxLength: 200 + i },
      ]),
    );
  const properties = Object.fromEntries(
    Array.from({ length: 8 }, (_, g) => [`group${g}`, { type: 'object', properties: group(g) }]),
  );
  return { type: 'object', properties };
}

/** A small schema of a few patterned properties with its own `$id`, distinct per `seed` (finding 2). */
export function distinctSchema(seed: number) {
  const properties = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [
      `field_${seed}_${i}`,
      { type: 'string', pattern: `^[a-z]{1,${(seed % 50) + 1}}-${i}$`, maxLength: 100 + i },
    ]),
  );
  return { $id: `https://schemas.example/${seed}`, type: 'object', properties };
}

/** An extraction body for `url` nested exactly 64 levels deep (the most a body may be). */
export function deepBody(url: string): string {
  // body(1) → schema(2) → properties(3) → a(4) → examples(5) → 59 more arrays = 64.
  const examples = `${'['.repeat(60)}1${']'.repeat(60)}`;
  return `{"urls":["${url}"],"schema":{"type":"object","properties":{"a":{"type":"string","examples":${examples}}}}}`;
}
