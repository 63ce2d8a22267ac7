import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { addressRefused, classifyAddress, isAllowedClass } from './ssrf-guard.js';

/** Resolves a host name to all its addresses (the DNS step, injectable for tests). */
export type ResolveAll = (hostname: string, family: number) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo, honours /etc/hosts), all addresses. */
export const systemResolveAll: ResolveAll = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family: family as 0 | 4 | 6 }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });

/** Decides whether one resolved address may be connected to. */
export type AddressPolicy = (address: string) => boolean;

/** The default policy: the SSRF classification with or without private networks. */
export function defaultAddressPolicy(allowPrivateNetworks: boolean): AddressPolicy {
  return (address) => isAllowedClass(classifyAddress(address), allowPrivateNetworks);
}

/**
 * A `lookup` for `net.connect`/`tls.connect` that resolves the host and
 * refuses it when ANY of its addresses is refused by the policy (so a name
 * with one public and one internal record cannot be used to reach the
 * internal one). The socket then connects to exactly the addresses checked
 * here, which closes the DNS-rebinding gap between a check and a connect.
 */
export function createGuardedLookup(
  policy: AddressPolicy,
  resolveAll: ResolveAll = systemResolveAll,
): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number } | number, callback: unknown) => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    const done = callback as (
      error: Error | null,
      address?: string | LookupAddress[],
      family?: number,
    ) => void;
    resolveAll(hostname, opts.family ?? 0).then(
      (addresses) => {
        if (addresses.length === 0) {
          done(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
          return;
        }
        for (const entry of addresses) {
          if (!policy(entry.address)) {
            done(addressRefused(hostname, entry.address, classifyAddress(entry.address)));
            return;
          }
        }
        if (opts.all) done(null, addresses);
        else done(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => done(error),
    );
  }) as LookupFunction;
}

/** Settings of {@link createGuardedConnector}. */
export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  connectTimeoutMs: number;
  resolveAll?: ResolveAll | undefined;
}

/**
 * An undici connector that enforces the address policy at connect time: a
 * literal-IP host is checked directly (Node skips `lookup` for those), a name
 * goes through the guarded lookup. Pooled keep-alive sockets were checked
 * when they were opened.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    keepAlive: true,
    lookup: createGuardedLookup(options.policy, options.resolveAll),
  });
  return (connectOptions, callback) => {
    const raw = connectOptions.hostname;
    const host = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
    if (isIP(host) !== 0 && !options.policy(host)) {
      callback(addressRefused(host, host, classifyAddress(host)), null);
      return;
    }
    base(connectOptions, callback);
  };
}
