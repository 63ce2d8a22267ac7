import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeyCache, createApiKey, keyIdOf, verifyApiKey } from './keys.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';

let store: SqliteStore;
afterEach(() => store?.close());

/** The same key with one character of its secret changed. */
const tampered = (key: string) => `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;

describe('API keys', () => {
  it('stores only a hash and verifies the full key, refusing a changed secret or a revoked key', async () => {
    store = new SqliteStore(':memory:');
    const { key, record } = await createApiKey(store, { name: 'ci' });
    expect(JSON.stringify(await store.listApiKeys())).not.toContain(key.slice(-20));
    expect((await verifyApiKey(store, key))?.owner).toBe(record.owner);
    expect(await verifyApiKey(store, tampered(key))).toBeNull();
    expect(await verifyApiKey(store, 'not-a-key')).toBeNull();
    expect(keyIdOf(key)).toBe(record.id);
    await store.revokeApiKey(record.id);
    expect(await verifyApiKey(store, key)).toBeNull();
  });

  it('caches records for its TTL but still refuses a wrong secret, before and after a good one', async () => {
    store = new SqliteStore(':memory:');
    const { key, record } = await createApiKey(store);
    const cache = new ApiKeyCache(store, 60_000);
    expect(await cache.verify(tampered(key))).toBeNull();
    expect((await cache.verify(key))?.id).toBe(record.id);
    expect(await cache.verify(tampered(key))).toBeNull();
    expect((await cache.verify(key))?.id).toBe(record.id);
    const fresh = new ApiKeyCache(store, 0);
    await store.revokeApiKey(record.id);
    expect(await fresh.verify(key)).toBeNull();
  });
});
