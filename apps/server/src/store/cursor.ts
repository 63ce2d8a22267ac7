import { ServiceError } from '../errors.js';

/**
 * Opaque list cursors: the position (a sequence number) of the last item of a
 * page, base64url-encoded with a tag so a cursor of one list is refused by
 * another.
 */
export function encodeCursor(tag: string, seq: number): string {
  return Buffer.from(`${tag}:${seq}`).toString('base64url');
}

/** Reads a cursor made by {@link encodeCursor}; a malformed or foreign one is a 400. */
export function decodeCursor(tag: string, cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^([A-Za-z0-9._-]+):(\d{1,15})$/.exec(text);
  if (!match || match[1] !== tag) {
    throw new ServiceError('invalid_request', 'cursor is not valid for this list', {
      details: [
        { path: ['cursor'], code: 'invalid_cursor', message: 'use the next_cursor of a previous page' },
      ],
    });
  }
  return Number(match[2]);
}

/**
 * The tag of a run's results list. Result positions are counted over every
 * run, so with a tag of `results` alone a cursor of one run's results read
 * another's from the same position: a page short or empty, not a 400.
 */
export const resultsCursorTag = (runId: string) => `results.${runId}`;
