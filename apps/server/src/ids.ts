import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Random bytes drawn from the system a few kilobytes at a time: a crawled
 * page adds an item id for each link it finds, and one system call per id
 * cost more than the rest of the id.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomBytes(count: number): Buffer {
  if (poolAt + count > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += count;
  return pool.subarray(poolAt - count, poolAt);
}

/**
 * A new opaque id with a type prefix (`run_…`, `res_…`): a millisecond
 * timestamp then 80 random bits, Crockford base32, so ids sort by creation
 * time within a store and never collide in practice.
 */
export function newId(prefix: 'run' | 'res' | 'itm' | 'key' | 'req', now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let random = '';
  for (let i = 0; i < 16; i++) {
    const bit = i * 5;
    const byte = bit >> 3;
    const value = (((bytes[byte] ?? 0) << 8) | (bytes[byte + 1] ?? 0)) >> (11 - (bit & 7));
    random += ALPHABET[value & 31];
  }
  return `${prefix}_${time}${random}`;
}

/**
 * Request ids for this process: a random prefix then a counter, so ids are
 * unique across processes without paying for randomness on every request.
 */
export function requestIds(): () => string {
  const prefix = newId('req').slice(4, 14 + 6);
  let counter = 0;
  return () => `req_${prefix}${(counter++).toString(36)}`;
}
