import secureJsonParse from 'secure-json-parse';
import { ServiceError } from '../errors.js';

/** Deepest nesting of a request body; every v1 shape fits well within it (a schema nests at most 8 levels). */
export const MAX_JSON_DEPTH = 64;

/**
 * From this size on, a body takes a turn of the event loop before it is parsed and validated
 * (`LoopTurns`): a body this large costs milliseconds; a small one, less than the turn.
 */
export const LARGE_BODY_BYTES = 4_096;

/**
 * Parses a JSON request body and refuses absurd nesting before any schema
 * sees it: validators recurse, and a body nested thousands of levels deep
 * would otherwise overflow the stack. The depth is measured on the text
 * (brackets outside strings), in one pass, without recursion.
 *
 * A `__proto__` key (or `constructor.prototype`) is refused, as fastify's own
 * parser does by default (this one replaces it): `JSON.parse` keeps such a key as
 * data, but validators and every copy of the object assign it, and an assignment
 * to `__proto__` sets the copy's prototype instead: the key was lost without a
 * word (an extraction schema's property named `__proto__`) and the copy inherited
 * the caller's object.
 *
 * A blank body is no body (`undefined`): clients send `Content-Type:
 * application/json` on every POST, cancel and retry included, which take none;
 * an endpoint that needs a body refuses `undefined` when it validates it.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new ServiceError(
          'invalid_request',
          `request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
        );
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  let body: unknown;
  try {
    // `safe`: a forbidden key makes the answer null (a syntax error still throws). The body is only walked
    // for such keys when its text may hold one.
    body = secureJsonParse.parse(text, null, {
      protoAction: 'error',
      constructorAction: 'error',
      safe: true,
    });
  } catch (error) {
    throw new ServiceError('invalid_request', `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (body === null && text.trim() !== 'null') {
    throw new ServiceError(
      'invalid_request',
      'request body has a "__proto__" key, or a "constructor" key holding "prototype": neither is accepted',
    );
  }
  return body;
}
