import { AuthenticationError, ConnectionError, RunNotFinishedError } from '@webdata/core';
import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.js';

const settings = { baseUrl: 'http://127.0.0.1:9', apiKey: 'wd_secret', apiKeyFrom: 'WEBDATA_API_KEY' };

describe('errorMessage', () => {
  it("says how to follow a run whose results are not there yet, in the command line's words", () => {
    const error = new RunNotFinishedError({ id: 'run_1', status: 'running' } as never);
    const message = errorMessage(error, settings);
    expect(message).toContain('run run_1 is running');
    expect(message).toContain('webdata runs watch run_1');
    expect(message).toContain('--unfinished');
    expect(message).not.toContain("unfinished: 'read'");
  });

  it('names the server that did not answer, and the settings that name it', () => {
    const message = errorMessage(new ConnectionError('GET /runs failed: ECONNREFUSED'), settings);
    expect(message).toMatch(/^GET \/runs failed: ECONNREFUSED\n/);
    expect(message).toContain('no webdata server answered at http://127.0.0.1:9');
    expect(message).toContain('--base-url or WEBDATA_BASE_URL');
  });

  it('says where a refused key came from, never the key', () => {
    const error = new AuthenticationError({
      status: 401,
      code: 'unauthorized',
      message: 'the API key is not valid',
    });
    const message = errorMessage(error, settings);
    expect(message).toContain('the key came from WEBDATA_API_KEY');
    expect(message).not.toContain('wd_secret');
  });
});
