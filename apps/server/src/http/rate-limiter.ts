/**
 * A token bucket per API key: `ratePerSecond` tokens a second, holding at
 * most `burst`. (A fixed window, as @fastify/rate-limit does it, would let a
 * client send twice the burst across a window edge.) Per process: with
 * several processes each enforces the rate on its own share of the traffic.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes a token for `key`: 0 when allowed, else the seconds until one is available. */
  take(key: string): number {
    const time = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: time };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((time - bucket.at) / 1000) * this.ratePerSecond);
    bucket.at = time;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    if (this.buckets.size > 100_000) this.sweep(time);
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }

  /** Forgets full buckets so the map cannot grow without bound. */
  private sweep(time: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((time - bucket.at) / 1000) * this.ratePerSecond >= this.burst)
        this.buckets.delete(key);
    }
  }
}
