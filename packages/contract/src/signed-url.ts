import { z } from 'zod';

/**
 * Query of a signed screenshot URL (`GET /api/v1/signed/screenshots/{runId}/{resultId}`):
 * `expires` (Unix seconds) and `signature` (an HMAC of the path and expiry).
 * The URL needs no API key; anything altered answers 403.
 */
export const SignedScreenshotQuery = z.strictObject({
  expires: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
});
export type SignedScreenshotQuery = z.infer<typeof SignedScreenshotQuery>;
