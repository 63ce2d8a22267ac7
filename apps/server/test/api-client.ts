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

/** Polls a run until it is terminal (tests only; the client package does this properly). */
export async function waitForRun(call: ApiCall, runId: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call('GET', `/api/v1/runs/${runId}?wait=5`);
    if (['completed', 'incomplete', 'failed', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > deadline)
      throw new Error(`run ${runId} still ${body.status}: ${JSON.stringify(body.stats)}`);
  }
}
