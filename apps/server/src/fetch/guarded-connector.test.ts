import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { PageError } from '../errors.js';
import {
  createGuardedConnector,
  createGuardedLookup,
  defaultAddressPolicy,
  type ResolveAll,
  systemResolveAll,
} from './guarded-connector.js';

// The lookup tests never open a socket: the fake resolver answers. The
// connector tests use loopback addresses only, so even a broken guard could
// at most reach this machine (port 9, where nothing listens).

function fakeResolver(table: Record<string, string[]>): ResolveAll {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

function lookupOnce(
  lookup: ReturnType<typeof createGuardedLookup>,
  hostname: string,
  all: boolean,
): Promise<{ error: Error | null; result: unknown }> {
  return new Promise((resolve) => {
    (lookup as unknown as (h: string, o: object, cb: (e: Error | null, r?: unknown) => void) => void)(
      hostname,
      { all },
      (error, result) => resolve({ error, result }),
    );
  });
}

const table = {
  'public.test': ['93.184.216.34', '2606:2800:220:1::1'],
  'internal.test': ['10.0.0.7'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'loop.test': ['127.0.0.1'],
};

describe('createGuardedLookup', () => {
  const guarded = createGuardedLookup(defaultAddressPolicy(false), fakeResolver(table));

  it('passes public names through, in both lookup forms', async () => {
    const all = await lookupOnce(guarded, 'public.test', true);
    expect(all.error).toBeNull();
    expect((all.result as LookupAddress[]).map((a) => a.address)).toEqual(table['public.test']);
    const one = await lookupOnce(guarded, 'public.test', false);
    expect(one.error).toBeNull();
    expect(one.result).toBe('93.184.216.34');
  });

  it.each([
    ['internal.test', 'private network'],
    ['mixed.test', 'loopback'],
    ['metadata.test', 'cloud metadata'],
    ['mapped.test', 'private network'],
  ])('refuses %s (%s)', async (host, reason) => {
    const { error } = await lookupOnce(guarded, host, true);
    expect(error).toBeInstanceOf(PageError);
    expect((error as PageError).code).toBe('unprocessable_url');
    expect(error?.message).toContain(reason);
    expect(error?.message).toContain(host);
  });

  it('passes resolver errors on unchanged', async () => {
    const { error } = await lookupOnce(guarded, 'nowhere.test', true);
    expect((error as Error & { code?: string }).code).toBe('ENOTFOUND');
  });

  it('allows private names when private networks are allowed', async () => {
    const open = createGuardedLookup(defaultAddressPolicy(true), fakeResolver(table));
    expect((await lookupOnce(open, 'internal.test', false)).result).toBe('10.0.0.7');
  });

  it('refuses localhost through the real system resolver (no connection made)', async () => {
    const real = createGuardedLookup(defaultAddressPolicy(false), systemResolveAll);
    const { error } = await lookupOnce(real, 'localhost', true);
    expect((error as PageError).code).toBe('unprocessable_url');
    expect(error?.message).toContain('loopback');
  });
});

describe('createGuardedConnector', () => {
  const connectWith = (allowPrivate: boolean, hostname: string) =>
    new Promise<Error | null>((resolve) => {
      const connector = createGuardedConnector({
        policy: defaultAddressPolicy(allowPrivate),
        connectTimeoutMs: 1000,
        resolveAll: fakeResolver(table),
      });
      connector({ hostname, protocol: 'http:', port: '9' }, (error, socket) => {
        socket?.destroy();
        resolve(error);
      });
    });

  it.each(['127.0.0.1', '[::1]', '127.0.0.2'])(
    'refuses the literal address %s before connecting',
    async (hostname) => {
      const error = await connectWith(false, hostname);
      expect((error as PageError).code).toBe('unprocessable_url');
    },
  );

  it('refuses a name that resolves to a loopback address', async () => {
    const error = await connectWith(false, 'loop.test');
    expect((error as PageError).code).toBe('unprocessable_url');
  });
});
