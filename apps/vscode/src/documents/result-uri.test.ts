import { describe, expect, it } from 'vitest';
import { fromResultUri, RESULT_SCHEME, safeTitle, toResultUri } from './result-uri.js';

describe('result URIs', () => {
  it('round-trips a result reference, titled by the page and typed by the format', () => {
    const ref = { runId: 'run_A1', resultId: 'res_B2', format: 'json' as const, title: 'Brass Desk Lamp' };
    const uri = toResultUri(ref);
    expect(uri).toEqual({
      scheme: RESULT_SCHEME,
      path: '/run_A1/res_B2/Brass Desk Lamp.json',
      query: 'format=json',
    });
    expect(fromResultUri(uri)).toEqual(ref);
  });

  it('gives the same URI for the same result, and different ones per format', () => {
    const base = { runId: 'run_1', resultId: 'res_1', title: 'Home' };
    expect(toResultUri({ ...base, format: 'markdown' })).toEqual(
      toResultUri({ ...base, format: 'markdown' }),
    );
    expect(toResultUri({ ...base, format: 'markdown' }).path).toBe('/run_1/res_1/Home.md');
    expect(toResultUri({ ...base, format: 'markdown' })).not.toEqual(
      toResultUri({ ...base, format: 'html' }),
    );
  });

  it('keeps ids with unusual characters intact', () => {
    const ref = { runId: 'run/x y', resultId: 'res_%2F', format: 'markdown' as const, title: 'T' };
    expect(fromResultUri(toResultUri(ref))).toEqual(ref);
  });

  it('falls back to the result id for an empty title and sanitises odd titles', () => {
    expect(toResultUri({ runId: 'r', resultId: 'res_9', format: 'text', title: ' \n ' }).path).toBe(
      '/r/res_9/res_9.txt',
    );
    const weird = toResultUri({ runId: 'r', resultId: 's', format: 'markdown', title: 'a/b\\c\u0000d' });
    expect(weird.path).toBe('/r/s/a-b-c d.md');
    expect(fromResultUri(weird)?.title).toBe('a-b-c d');
  });

  it('rejects what is not a result URI', () => {
    const good = toResultUri({ runId: 'r', resultId: 's', format: 'json', title: 't' });
    expect(fromResultUri({ ...good, scheme: 'file' })).toBeUndefined();
    expect(fromResultUri({ ...good, query: 'format=pdf' })).toBeUndefined();
    expect(fromResultUri({ ...good, query: '' })).toBeUndefined();
    expect(fromResultUri({ ...good, query: 'format=constructor' })).toBeUndefined();
    expect(fromResultUri({ ...good, path: '/r/t.json' })).toBeUndefined();
    expect(fromResultUri({ ...good, path: '/%E0%A4%A/s/t.json' })).toBeUndefined();
  });

  it('shortens long titles for the tab', () => {
    const title = safeTitle('x'.repeat(500));
    expect(title).toHaveLength(80);
    expect(title.endsWith('…')).toBe(true);
    expect(safeTitle('  Lamps / Desks \n| Shop  ')).toBe('Lamps - Desks | Shop');
  });
});
