import { isIP } from 'node:net';
import { PageError } from '../errors.js';

/**
 * What kind of address an IP is, as far as the SSRF guard cares. Everything
 * but `public` is refused unless private networks are allowed.
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared-cgnat'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'cloud-metadata'
  | 'invalid';

const CLASS_DESCRIPTIONS: Record<AddressClass, string> = {
  public: 'a public address',
  unspecified: 'an unspecified / "this network" address (0.0.0.0/8, ::)',
  loopback: 'a loopback address (127.0.0.0/8, ::1)',
  private: 'a private network address (10/8, 172.16/12, 192.168/16, fec0::/10)',
  'link-local': 'a link-local address (169.254.0.0/16, fe80::/10)',
  'unique-local': 'a unique-local IPv6 address (fc00::/7)',
  'shared-cgnat': 'a carrier-grade NAT shared address (100.64.0.0/10)',
  multicast: 'a multicast address (224.0.0.0/4, ff00::/8)',
  broadcast: 'the broadcast address (255.255.255.255)',
  reserved: 'a reserved or special-purpose address',
  documentation: 'a documentation / benchmarking address',
  'cloud-metadata': 'a cloud metadata service address',
  invalid: 'not a valid IP address',
};

/** A human-readable name of an address class, for error messages. */
export function describeAddressClass(kind: AddressClass): string {
  return CLASS_DESCRIPTIONS[kind];
}

/**
 * Addresses of cloud instance-metadata services. Most sit in ranges that are
 * refused anyway; they are named so the error says what was hit, and the
 * Azure one (168.63.129.16) is a public-looking address that must be refused.
 */
const METADATA_V4 = new Set([
  '169.254.169.254', // AWS, GCP, Azure IMDS, OpenStack, DigitalOcean, Oracle
  '169.254.170.2', // AWS ECS task metadata
  '169.254.169.123', // AWS time sync
  '168.63.129.16', // Azure wireserver
  '100.100.100.200', // Alibaba Cloud
]);
/** fd00:ec2::254 — the AWS IMDS IPv6 endpoint, as 8 hextets. */
const METADATA_V6 = ['fd00:ec2:0:0:0:0:0:254'];

/** An IPv4 range given as its first address (as a number) and prefix length. */
interface V4Range {
  base: number;
  bits: number;
  kind: AddressClass;
}

function v4(text: string, bits: number, kind: AddressClass): V4Range {
  const parsed = parseIPv4(text);
  if (parsed === null) throw new Error(`bad range ${text}`);
  return { base: parsed, bits, kind };
}

/** Checked in order; the first match wins (so narrower ranges come first). */
const V4_RANGES: V4Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared-cgnat'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'), // IETF protocol assignments
  v4('192.0.2.0', 24, 'documentation'), // TEST-NET-1
  v4('192.88.99.0', 24, 'reserved'), // 6to4 relay anycast
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'documentation'), // benchmarking
  v4('198.51.100.0', 24, 'documentation'), // TEST-NET-2
  v4('203.0.113.0', 24, 'documentation'), // TEST-NET-3
  v4('224.0.0.0', 4, 'multicast'),
  v4('255.255.255.255', 32, 'broadcast'),
  v4('240.0.0.0', 4, 'reserved'),
];

/** Parses dotted-quad IPv4 into an unsigned 32-bit number, or null. */
export function parseIPv4(text: string): number | null {
  if (isIP(text) !== 4) return null;
  const parts = text.split('.').map(Number);
  return (((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0) as number;
}

/** Parses an IPv6 address (with `::`, an embedded IPv4 tail or a zone id) into 8 hextets, or null. */
export function parseIPv6(input: string): number[] | null {
  let text = input;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (isIP(text) !== 6) return null;
  // Turn an embedded dotted IPv4 tail into two hextets.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const n = parseIPv4(tail);
    if (n === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 && missing !== 0) return null;
  if (halves.length === 2 && missing < 1) return null;
  const groups = [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const hextets = groups.map((g) => Number.parseInt(g, 16));
  if (hextets.length !== 8 || hextets.some((h) => Number.isNaN(h) || h < 0 || h > 0xffff)) return null;
  return hextets;
}

function classifyV4Number(n: number, dotted: string): AddressClass {
  if (METADATA_V4.has(dotted)) return 'cloud-metadata';
  for (const range of V4_RANGES) {
    const mask = range.bits === 0 ? 0 : (0xffffffff << (32 - range.bits)) >>> 0;
    if ((n & mask) >>> 0 === (range.base & mask) >>> 0) return range.kind;
  }
  return 'public';
}

function v4FromHextets(high: number, low: number): { n: number; dotted: string } {
  const n = ((high << 16) | low) >>> 0;
  const dotted = [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
  return { n, dotted };
}

function classifyV6(h: number[]): AddressClass {
  const [h0, h1, h2, h3, h4, h5, h6, h7] = h as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (METADATA_V6.includes(h.map((x) => x.toString(16)).join(':'))) return 'cloud-metadata';
  const firstFiveZero = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0;
  if (firstFiveZero && h5 === 0 && h6 === 0) {
    if (h7 === 0) return 'unspecified';
    if (h7 === 1) return 'loopback';
  }
  // IPv4-mapped ::ffff:a.b.c.d — judged as the IPv4 address it carries.
  if (firstFiveZero && h5 === 0xffff) {
    const { n, dotted } = v4FromHextets(h6, h7);
    return classifyV4Number(n, dotted);
  }
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765) and deprecated IPv4-compatible ::a.b.c.d.
  if (firstFiveZero && h5 === 0) return 'reserved';
  if (h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0xffff && h5 === 0) return 'reserved';
  // NAT64 well-known prefix 64:ff9b::/96 carries an IPv4 address in its last 32 bits.
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0) {
    const { n, dotted } = v4FromHextets(h6, h7);
    return classifyV4Number(n, dotted);
  }
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 1) return 'reserved'; // local-use NAT64 64:ff9b:1::/48
  // 6to4 2002::/16 carries an IPv4 address in bits 16–47.
  if (h0 === 0x2002) {
    const { n, dotted } = v4FromHextets(h1, h2);
    return classifyV4Number(n, dotted);
  }
  if (h0 === 0x2001 && h1 === 0) return 'reserved'; // Teredo: tunnels to an obfuscated IPv4 peer
  if (h0 === 0x2001 && h1 === 0xdb8) return 'documentation';
  if (h0 === 0x100 && h1 === 0 && h2 === 0 && h3 === 0) return 'reserved'; // discard-only 100::/64
  if ((h0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((h0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((h0 & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((h0 & 0xff00) === 0xff00) return 'multicast';
  // Only global unicast (2000::/3) is reachable on the public internet.
  if ((h0 & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

/**
 * Classifies an IP address literal (IPv4 dotted quad or IPv6, with or without
 * brackets or zone id). Pure: never resolves or connects.
 */
export function classifyAddress(address: string): AddressClass {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const n = parseIPv4(text);
  if (n !== null) return classifyV4Number(n, text);
  const h = parseIPv6(text);
  if (h !== null) return classifyV6(h);
  return 'invalid';
}

/** Whether the guard lets a connection to this address class through. */
export function isAllowedClass(kind: AddressClass, allowPrivateNetworks: boolean): boolean {
  if (kind === 'public') return true;
  if (kind === 'invalid') return false;
  return allowPrivateNetworks;
}

/**
 * The guard's refusal of one address, as a PageError `unprocessable_url`. A
 * name's address is not shown, only its class: the message goes to the
 * caller, who must not learn what the server's DNS answers.
 */
export function addressRefused(host: string, address: string, kind: AddressClass): PageError {
  const what =
    host === address
      ? `${address}: ${describeAddressClass(kind)}`
      : `${host}: it resolves to ${describeAddressClass(kind)}`;
  return new PageError(
    'unprocessable_url',
    `refused to connect to ${what}; private networks are not allowed (WEBDATA_ALLOW_PRIVATE_NETWORKS or --allow-private-networks lets a self-hosted server fetch them)`,
  );
}

/**
 * Checks one address; throws PageError `unprocessable_url` naming the class
 * when the guard refuses it.
 */
export function assertAddressAllowed(host: string, address: string, allowPrivateNetworks: boolean): void {
  const kind = classifyAddress(address);
  if (!isAllowedClass(kind, allowPrivateNetworks)) throw addressRefused(host, address, kind);
}

/** Host names that always name a metadata service or this machine, refused before any lookup. */
const BLOCKED_HOST_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/**
 * The check every hop (the first URL and each redirect target) passes before
 * a request is made: http(s) only, and a literal-IP or well-known internal
 * host name must be allowed by the guard. Names that need DNS are checked
 * again at connect time by the guarded lookup. Returns the parsed URL.
 */
export function checkHopUrl(input: string | URL, allowPrivateNetworks: boolean): URL {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : input;
  } catch {
    throw new PageError('unprocessable_url', `not a valid absolute URL: ${String(input).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PageError('unprocessable_url', `unsupported URL scheme ${url.protocol} (only http and https)`);
  }
  if (url.username || url.password) {
    throw new PageError('unprocessable_url', 'URLs with credentials are not fetched');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    assertAddressAllowed(host, host, allowPrivateNetworks);
  } else if (!allowPrivateNetworks) {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (BLOCKED_HOST_NAMES.has(name) || name === 'localhost' || name.endsWith('.localhost')) {
      throw new PageError(
        'unprocessable_url',
        `refused to connect to ${name}: a local or metadata host name; private networks are not allowed (WEBDATA_ALLOW_PRIVATE_NETWORKS or --allow-private-networks lets a self-hosted server fetch them)`,
      );
    }
  }
  return url;
}
