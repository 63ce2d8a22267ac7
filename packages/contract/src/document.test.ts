import { describe, expect, it } from 'vitest';
import {
  DocumentContent,
  DocumentContentLenient,
  DocumentContentQuery,
  DocumentPathParams,
} from './document.js';
import { ENDPOINTS } from './endpoints.js';
import { buildOpenApiDocument } from './openapi.js';
import { expectIssueAt } from './test-helpers.js';

const content = {
  id: 'doc_Q2xhc3NpYy1pZA',
  collection: 'docs',
  url: 'https://docs.example/retries',
  title: 'Retries',
  format: 'markdown',
  content: '# Retries\n\nAcme retries a failed request up to five times.\n',
  indexed_at: '2026-11-22T10:15:30.123Z',
};

describe('DocumentContent', () => {
  it('accepts a document in markdown or text, with or without a title', () => {
    expect(DocumentContent.parse(content)).toEqual(content);
    expect(DocumentContent.safeParse({ ...content, format: 'text', title: null }).success).toBe(true);
  });

  it('rejects another id kind, a format it is not served in, a missing content, an extra field', () => {
    expectIssueAt(DocumentContent, { ...content, id: 'res_1' }, ['id']);
    expectIssueAt(DocumentContent, { ...content, format: 'html' }, ['format']);
    const { content: _content, ...noContent } = content;
    expectIssueAt(DocumentContent, noContent, ['content']);
    expectIssueAt(DocumentContent, { ...content, score: 1 }, []);
  });

  it('reads a foreign answer leniently: unknown fields kept, only content required', () => {
    const foreign = DocumentContentLenient.parse({ content: 'text', format: 'html', words: 2 });
    expect(foreign).toEqual({ content: 'text', format: 'html', words: 2 });
    expect(DocumentContentLenient.safeParse({ id: 'doc_1' }).success).toBe(false);
  });
});

describe('document path and query', () => {
  it('takes a collection name and any short id; refuses a bad collection name', () => {
    expect(DocumentPathParams.parse({ collection: 'docs', documentId: 'doc_x' })).toEqual({
      collection: 'docs',
      documentId: 'doc_x',
    });
    // Any id is looked up (an unknown one is a 404, not a 400), within a length bound.
    expect(DocumentPathParams.safeParse({ collection: 'docs', documentId: 'res_1' }).success).toBe(true);
    expectIssueAt(DocumentPathParams, { collection: 'Not A Name', documentId: 'doc_x' }, ['collection']);
    expectIssueAt(DocumentPathParams, { collection: 'docs', documentId: 'x'.repeat(129) }, ['documentId']);
  });

  it('takes markdown or text and nothing else', () => {
    expect(DocumentContentQuery.parse({})).toEqual({});
    expect(DocumentContentQuery.parse({ format: 'text' })).toEqual({ format: 'text' });
    expectIssueAt(DocumentContentQuery, { format: 'json' }, ['format']);
    expectIssueAt(DocumentContentQuery, { format: 'text', include: 'x' }, []);
  });
});

describe('the document endpoint', () => {
  it('is in ENDPOINTS and in the OpenAPI document with its parameters, answer and 404', () => {
    const path = '/api/v1/collections/{collection}/documents/{documentId}';
    expect(ENDPOINTS.find((e) => e.path === path)?.operationId).toBe('getDocumentContent');
    const operation = (
      buildOpenApiDocument().paths as Record<
        string,
        Record<string, { parameters: { name: string; in: string }[]; responses: Record<string, unknown> }>
      >
    )[path]?.get;
    expect(operation?.parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'path:collection',
      'path:documentId',
      'query:format',
    ]);
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '404']));
  });
});
