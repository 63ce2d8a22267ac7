/** A signed screenshot URL and when it stops working. */
export interface SignedUrl {
  url: string;
  expires_at?: string | undefined;
}

/** Margin before expiry under which a signed URL is signed again rather than used. */
const MARGIN_MS = 30_000;

/**
 * Whether a signed URL can still be used at `now` (with a margin for the
 * download itself). A URL without an expiry is used once, then signed again.
 *
 * @example
 * ```ts
 * isUsable({ url, expires_at: '2024-05-01T10:15:00Z' }, Date.parse('2024-05-01T10:14:50Z')); // false
 * ```
 */
export function isUsable(signed: SignedUrl, now: number): boolean {
  if (!signed.expires_at) return false;
  const expires = Date.parse(signed.expires_at);
  return !Number.isNaN(expires) && expires - now > MARGIN_MS;
}

/**
 * Whether a failed download means the signature is stale (expired or
 * rotated) so that signing again may help: 403, 404 and 410.
 *
 * @example
 * ```ts
 * isStaleSignature(403); // true
 * ```
 */
export function isStaleSignature(status: number): boolean {
  return status === 403 || status === 404 || status === 410;
}
