import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, ErrorBody, ErrorBodyLenient } from './errors.js';
import { expectIssueAt } from './test-helpers.js';

/** The error table of the repository's API documentation (`docs/api.md`): code → HTTP status. */
function documentedErrorStatuses(): Record<string, number> {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');
  const rows = [...doc.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)];
  return Object.fromEntries(rows.map((row) => [row[2]!, Number(row[1])]));
}

describe('ErrorBody', () => {
  it('accepts every code of api-v1.md with details', () => {
    for (const code of Object.keys(ERROR_STATUS)) {
      const body = {
        error: {
          code,
          message: 'm',
          request_id: 'req_1',
          details: [{ path: ['urls', 0], code: 'custom', message: 'bad' }],
        },
      };
      expect(ErrorBody.safeParse(body).success, code).toBe(true);
    }
  });

  it('maps every code to the status the API documentation gives it, no more and no fewer', () => {
    const documented = documentedErrorStatuses();
    // The table is read, not empty: a broken reader would make the comparison vacuous.
    expect(Object.keys(documented).length).toBeGreaterThanOrEqual(10);
    expect(ERROR_STATUS).toEqual(documented);
  });

  it('rejects an unknown code and a missing request id; the lenient reading accepts both', () => {
    expectIssueAt(ErrorBody, { error: { code: 'teapot', message: 'm', request_id: 'r' } }, ['error', 'code']);
    expectIssueAt(ErrorBody, { error: { code: 'internal', message: 'm' } }, ['error', 'request_id']);
    expect(ErrorBodyLenient.safeParse({ error: { code: 'teapot' } }).success).toBe(true);
  });
});
