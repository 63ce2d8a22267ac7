import { createHash } from 'node:crypto';
import type { SearchParams } from '@webdata/contract';
import { ServiceError } from '../errors.js';

/** What a cursor is bound to: a cursor from one query may not page through another. */
export interface CursorScope {
  owner: string;
  query: string;
  collection: string;
  urlPrefix: string | undefined;
  site: string | undefined;
}

/** A search's scope: what its cursors are bound to, the site filter lower-cased as hosts compare. */
export function searchScopeOf(owner: string, params: SearchParams): CursorScope {
  return {
    owner,
    query: params.query,
    collection: params.collection,
    urlPrefix: params.filters?.url_prefix,
    site: params.filters?.site?.toLowerCase(),
  };
}

interface CursorBody {
  v: 1;
  /** Offset of the next page. */
  o: number;
  /** Hash of the scope. */
  h: string;
}

/** Fingerprint of a query and its filters, as stored in its cursors. */
export function scopeHash(scope: CursorScope): string {
  const text = JSON.stringify([
    scope.owner,
    scope.query,
    scope.collection,
    scope.urlPrefix ?? null,
    scope.site ?? null,
  ]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/** An opaque base64url cursor that continues `scope` at `offset`. */
export function encodeSearchCursor(scope: CursorScope, offset: number): string {
  const body: CursorBody = { v: 1, o: offset, h: scopeHash(scope) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * The offset a cursor continues at. Throws `ServiceError('invalid_request')`
 * for a cursor that is malformed or was issued for another query or filters.
 */
export function decodeSearchCursor(cursor: string, scope: CursorScope): number {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('cursor is malformed');
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    (body as CursorBody).v !== 1 ||
    !Number.isSafeInteger((body as CursorBody).o) ||
    (body as CursorBody).o < 0 ||
    typeof (body as CursorBody).h !== 'string'
  ) {
    throw invalidCursor('cursor is malformed');
  }
  if ((body as CursorBody).h !== scopeHash(scope)) {
    throw invalidCursor('cursor belongs to another query or other filters');
  }
  return (body as CursorBody).o;
}

function invalidCursor(message: string): ServiceError {
  return new ServiceError('invalid_request', message, {
    details: [{ path: ['cursor'], code: 'invalid_cursor', message }],
  });
}
