import { describe, expect, it } from 'vitest';
import { runsViewMessage, runsViewTitle } from './runs-view-message.js';

const URL = 'http://127.0.0.1:8787';

describe('runsViewMessage', () => {
  it('is empty while no run is listed, whatever the state, so the welcome content shows', () => {
    for (const state of [
      'noKey',
      'connecting',
      'connected',
      'unauthorized',
      'rateLimited',
      'unreachable',
      'error',
    ] as const) {
      expect(runsViewMessage(state, URL, false)).toBeUndefined();
    }
  });

  it('says where listed runs come from, and why they stopped updating, in plain text', () => {
    expect(runsViewMessage('connected', URL, true)).toBe(`Connected to ${URL}`);
    expect(runsViewMessage('unreachable', URL, true)).toBe(`Lost the connection to ${URL}: retrying…`);
    expect(runsViewMessage('unauthorized', URL, true)).toBe(
      `${URL} refused the API key: run Web Data: Set API Key`,
    );
    expect(runsViewMessage('error', URL, true)).toMatch(/Show Log/);
    expect(runsViewMessage('rateLimited', URL, true)).toBe(
      `${URL} asks to wait (too many requests): the view tries again on its own`,
    );
    expect(runsViewMessage('connecting', URL, true)).toBeUndefined();
    for (const state of ['connected', 'unauthorized', 'unreachable', 'error'] as const) {
      expect(runsViewMessage(state, URL, true)).not.toMatch(/\$\(/);
    }
  });
});

describe('runsViewTitle', () => {
  it('names the configured address while it does not answer or refuses the key, and only Runs once connected', () => {
    expect(runsViewTitle('unreachable', 'http://127.0.0.1:9999/')).toBe('Runs · 127.0.0.1:9999');
    expect(runsViewTitle('unauthorized', 'https://data.example/')).toBe('Runs · data.example');
    expect(runsViewTitle('error', 'http://127.0.0.1:9999')).toBe('Runs · 127.0.0.1:9999');
    expect(runsViewTitle('connected', 'http://127.0.0.1:9999')).toBe('Runs');
    expect(runsViewTitle('noKey', 'http://127.0.0.1:9999')).toBe('Runs');
    expect(runsViewTitle('rateLimited', 'http://127.0.0.1:9999')).toBe('Runs · 127.0.0.1:9999');
  });
});
