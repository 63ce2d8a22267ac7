import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from './ids.js';
import type { ApiKeyRecord, Store } from './store/store.js';

/**
 * API keys look like `wd_<keyId>_<secret>`. Only a SHA-256 hash of the secret
 * is stored; the key id finds the record and the hashes are compared in
 * constant time, so neither a database leak nor response timing gives a key away.
 */
const KEY_PATTERN = /^wd_(key_[0-9a-z]{26})_([A-Za-z0-9_-]{32})$/;

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Creates a key for `owner` (a new owner when omitted) and returns it in full: the only time it is shown. */
export async function createApiKey(
  store: Store,
  options: { owner?: string | undefined; name?: string | undefined } = {},
): Promise<{ key: string; record: ApiKeyRecord }> {
  const id = newId('key');
  const secret = randomBytes(24).toString('base64url');
  const record: ApiKeyRecord = {
    id,
    owner: options.owner ?? `own_${id.slice(4)}`,
    name: options.name ?? 'default',
    secretHash: hashSecret(secret),
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
  await store.createApiKey(record);
  return { key: `wd_${id}_${secret}`, record };
}

/** The key's record when `presented` is a valid, unrevoked key; otherwise null. */
export async function verifyApiKey(store: Store, presented: string): Promise<ApiKeyRecord | null> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return null;
  const record = await store.findApiKey(match[1]!);
  if (!record || record.revokedAt !== null) return null;
  return secretMatches(Buffer.from(record.secretHash, 'hex'), match[2]!) ? record : null;
}

/** A key id shown in lists and logs instead of the key. */
export function keyIdOf(presented: string): string | null {
  return KEY_PATTERN.exec(presented)?.[1] ?? null;
}

/**
 * Verifies keys with their records cached for `ttlMs` (by key id; the secret
 * is still hashed and compared on every request), so a hot key costs no
 * database read. A revocation takes effect within `ttlMs`, in every process.
 */
export class ApiKeyCache {
  private readonly records = new Map<
    string,
    { record: ApiKeyRecord | null; hash: Buffer; until: number; verified: Buffer | null }
  >();

  constructor(
    private readonly store: Store,
    private readonly ttlMs = 1000,
  ) {}

  async verify(presented: string): Promise<ApiKeyRecord | null> {
    const match = KEY_PATTERN.exec(presented);
    if (!match) return null;
    const id = match[1]!;
    const now = Date.now();
    let cached = this.records.get(id);
    if (!cached || cached.until < now) {
      if (this.records.size > 10_000) this.records.clear();
      const record = await this.store.findApiKey(id);
      cached = {
        record,
        hash: Buffer.from(record?.secretHash ?? '', 'hex'),
        until: now + this.ttlMs,
        verified: null,
      };
      this.records.set(id, cached);
    }
    if (!cached.record || cached.record.revokedAt !== null) return null;
    const secret = Buffer.from(match[2]!);
    // Within the TTL, a secret already verified against the hash is compared directly (still in constant time).
    if (cached.verified) return timingSafeEqual(cached.verified, secret) ? cached.record : null;
    if (!secretMatches(cached.hash, match[2]!)) return null;
    cached.verified = secret;
    return cached.record;
  }
}

/** Whether `secret` hashes to `expected`, compared in constant time. */
function secretMatches(expected: Buffer, secret: string): boolean {
  const actual = createHash('sha256').update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
