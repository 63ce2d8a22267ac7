import { describe, expect, it } from 'vitest';
import { failureRemedy } from '../runs/failure-remedy.js';
import { failureActions } from './failure-actions.js';

describe('failureActions', () => {
  it('offers no Retry Run for a failure that will repeat, and what mends it first', () => {
    const missing = failureRemedy({ error: { code: 'http_error' }, http_status: 404 });
    expect(failureActions(missing, true)).toEqual(['Open Page', 'Copy URL']);
    const unstated = failureRemedy({ error: { code: 'extraction_failed' }, http_status: 200 });
    expect(failureActions(unstated, true)).toEqual(['Extract Again…', 'Open Page', 'Copy URL']);
    const refused = failureRemedy({ error: { code: 'unprocessable_url' }, http_status: null });
    expect(failureActions(refused, true)).toEqual(['Open Page', 'Copy URL']);
  });

  it('offers Retry Run for a failure of the moment', () => {
    const slow = failureRemedy({ error: { code: 'timeout' }, http_status: null });
    expect(failureActions(slow, true)).toEqual(['Open Page', 'Copy URL', 'Retry Run']);
    expect(failureActions(slow, false)).toEqual(['Retry Run']);
  });
});
