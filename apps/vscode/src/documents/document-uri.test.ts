import { describe, expect, it } from 'vitest';
import { DOCUMENT_SCHEME, fromDocumentUri, toDocumentUri } from './document-uri.js';
import { RESULT_SCHEME, toResultUri } from './result-uri.js';

describe('document URIs', () => {
  it('round-trips a document reference, titled by the page, Markdown unless text is asked for', () => {
    const ref = { collection: 'docs', documentId: 'doc_A1-b_2', title: 'Configuring retries' };
    const uri = toDocumentUri(ref);
    expect(uri).toEqual({
      scheme: DOCUMENT_SCHEME,
      path: '/docs/doc_A1-b_2/Configuring retries.md',
      query: '',
    });
    expect(fromDocumentUri(uri)).toEqual(ref);

    const text = { ...ref, format: 'text' as const };
    expect(toDocumentUri(text)).toEqual({
      scheme: DOCUMENT_SCHEME,
      path: '/docs/doc_A1-b_2/Configuring retries.txt',
      query: 'format=text',
    });
    expect(fromDocumentUri(toDocumentUri(text))).toEqual(text);
  });

  it('gives the same URI for the same document (the same tab), and another per collection or format', () => {
    const ref = { collection: 'docs', documentId: 'doc_1', title: 'Home | Acme' };
    expect(toDocumentUri(ref)).toEqual(toDocumentUri({ ...ref }));
    expect(toDocumentUri(ref)).not.toEqual(toDocumentUri({ ...ref, collection: 'other' }));
    expect(toDocumentUri(ref)).not.toEqual(toDocumentUri({ ...ref, format: 'text' }));
    // Never the URI of a result, whose tabs another provider serves.
    expect(toDocumentUri(ref).scheme).not.toBe(
      toResultUri({ runId: 'docs', resultId: 'doc_1', format: 'markdown', title: 'Home | Acme' }).scheme,
    );
    expect(RESULT_SCHEME).not.toBe(DOCUMENT_SCHEME);
  });

  it('keeps ids with unusual characters intact and sanitises odd titles', () => {
    const ref = { collection: 'a b', documentId: 'doc/%2F?#', title: 'T' };
    expect(fromDocumentUri(toDocumentUri(ref))).toEqual(ref);
    const weird = toDocumentUri({ collection: 'c', documentId: 'doc_9', title: 'a/b\\c\u0000d' });
    expect(weird.path).toBe('/c/doc_9/a-b-c d.md');
    expect(fromDocumentUri(weird)?.title).toBe('a-b-c d');
    expect(toDocumentUri({ collection: 'c', documentId: 'doc_9', title: ' \n ' }).path).toBe(
      '/c/doc_9/doc_9.md',
    );
  });

  it('rejects what is not a document URI', () => {
    const good = toDocumentUri({ collection: 'c', documentId: 'doc_1', title: 't' });
    expect(fromDocumentUri({ ...good, scheme: RESULT_SCHEME })).toBeUndefined();
    expect(fromDocumentUri({ ...good, query: 'format=html' })).toBeUndefined();
    expect(fromDocumentUri({ ...good, query: 'format=constructor' })).toBeUndefined();
    expect(fromDocumentUri({ ...good, path: '/c/t.md' })).toBeUndefined();
    expect(fromDocumentUri({ ...good, path: '/%E0%A4%A/doc_1/t.md' })).toBeUndefined();
  });
});
