import autocannon from 'autocannon';

/** Figures of one load run. */
export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Drives `url` with autocannon for `seconds` and returns throughput and latency. */
export async function load(options: {
  url: string;
  seconds: number;
  connections: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    duration: options.seconds,
    connections: options.connections,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
