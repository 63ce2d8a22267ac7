import { request } from 'undici';

/** A minimal HTTP helper for tests of the API: JSON in, status + headers + parsed body out. */
export function apiClient(baseUrl: string, apiKey: string) {
  return async function call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
    const response = await request(`${baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': apiKey,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    if ((response.headers['content-type'] ?? '').toString().includes('json') && text !== '')
      parsed = JSON.parse(text);
    return { status: response.statusCode, headers: response.headers, body: parsed };
  };
}

export type ApiCall = ReturnType<typeof apiClient>;

/**
 * Reads a run, failing with what the server answered when that is not the run
 * (an error body, a 503 while it shuts down) rather than with a TypeError later.
 */
export async function getRun(call: ApiCall, runId: string, query = ''): Promise<any> {
  const { status, headers, body } = await call('GET', `/api/v1/runs/${runId}${query}`);
  if (status !== 200) {
    throw new Error(
      `GET run ${runId}${query} answered ${status} (retry-after ${headers['retry-after'] ?? 'none'}): ${JSON.stringify(body)}`,
    );
  }
  return body;
}

/**
 * Polls a run until it is terminal (tests only; the client package does this
 * properly). A 503 or 429 is waited out as its Retry-After says; any other answer
 * that is not the run fails with that answer.
 */
export async function waitForRun(call: ApiCall, runId: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, headers, body } = await call('GET', `/api/v1/runs/${runId}?wait=5`);
    // 429: the key holds its most long polls at once (many runs awaited together), as 503 is waited out.
    if ((status === 503 || status === 429) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Number(headers['retry-after'] ?? 1) * 1000));
      continue;
    }
    if (status !== 200) throw new Error(`GET run ${runId} answered ${status}: ${JSON.stringify(body)}`);
    if (['completed', 'incomplete', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline)
      throw new Error(`run ${runId} still ${body.status}: ${JSON.stringify(body.stats)}`);
  }
}
