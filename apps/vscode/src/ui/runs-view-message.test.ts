import { describe, expect, it } from 'vitest';
import { runsViewActions, runsViewMessage } from './runs-view-message.js';

const URL = 'http://127.0.0.1:8787';
const ELSEWHERE = 'http://127.0.0.1:9999';

describe('runsViewMessage', () => {
  it('is empty while no run is listed with no key, connecting or connected, so the welcome content shows', () => {
    for (const state of ['noKey', 'connecting', 'connected'] as const) {
      expect(runsViewMessage(state, URL, false)).toBeUndefined();
      expect(runsViewActions(state)).toEqual([]);
    }
  });

  it('names the configured address in full while no run is listed and the service is at fault', () => {
    expect(runsViewMessage('unreachable', ELSEWHERE, false)).toBe(
      `No Web Data service answers at ${ELSEWHERE} (the setting Service Address). ("pnpm start" in a clone of webdata runs one at ${URL}, the default address.)`,
    );
    expect(runsViewMessage('unreachable', `${URL}/`, false)).toMatch(
      /^No Web Data service answers at http:\/\/127\.0\.0\.1:8787\/, the default address .* run "pnpm start"/,
    );
    expect(runsViewMessage('unauthorized', ELSEWHERE, false)).toBe(
      `The Web Data service at ${ELSEWHERE} refused the API key.`,
    );
    expect(runsViewMessage('rateLimited', ELSEWHERE, false)).toMatch(
      /^The Web Data service at http:\/\/127\.0\.0\.1:9999 asks to wait: .* tries again on its own/,
    );
    expect(runsViewMessage('error', ELSEWHERE, false)).toMatch(
      /from http:\/\/127\.0\.0\.1:9999\. .*Show Log/,
    );
  });

  it('says an address the extension cannot use is not one, rather than sending to the log', () => {
    // Before: "The runs could not be listed from … The log (Web Data: Show Log) says why." (Invalid URL)
    for (const address of ['http://', 'ftp://files.example/', 'not an address']) {
      expect(runsViewMessage('error', address, false)).toBe(
        `The setting Service Address, "${address}", is not a web address: give the service's, as in ${URL}.`,
      );
    }
  });

  it('says where listed runs come from, and why they stopped updating, in plain text', () => {
    expect(runsViewMessage('connected', URL, true)).toBe(`Connected to ${URL}`);
    expect(runsViewMessage('unreachable', URL, true)).toBe(`Lost the connection to ${URL}: retrying…`);
    expect(runsViewMessage('unauthorized', URL, true)).toBe(
      `${URL} refused the API key: run Web Data: Set API Key…`,
    );
    expect(runsViewMessage('error', URL, true)).toMatch(/Show Log/);
    expect(runsViewMessage('rateLimited', URL, true)).toBe(
      `${URL} asks to wait (too many requests): the view tries again on its own`,
    );
    expect(runsViewMessage('connecting', URL, true)).toBeUndefined();
    for (const state of ['connected', 'unauthorized', 'unreachable', 'rateLimited', 'error'] as const) {
      expect(runsViewMessage(state, URL, true)).not.toMatch(/\$\(/);
      expect(runsViewMessage(state, URL, false) ?? '').not.toMatch(/\$\(/);
    }
  });
});

describe('runsViewMessage with a filter', () => {
  it('says the filter, which the view does not draw elsewhere, and offers to clear it when it matches none', () => {
    expect(runsViewMessage('connected', URL, true, { status: 'completed', type: 'crawl' })).toBe(
      `Connected to ${URL}, showing completed crawl runs only`,
    );
    expect(runsViewMessage('connected', URL, true, { type: 'deep-crawl' })).toBe(
      `Connected to ${URL}, showing deep crawl runs only`,
    );
    expect(runsViewMessage('connected', URL, false, { status: 'failed' })).toBe(
      `No failed runs at ${URL}: Clear Filter shows every run.`,
    );
    expect(runsViewActions('connected', true).map((action) => action.command)).toEqual([
      'webdata.runs.clearFilter',
    ]);
    expect(runsViewMessage('connected', URL, true, {})).toBe(`Connected to ${URL}`);
    expect(runsViewMessage('connected', URL, false, {})).toBeUndefined();
  });
});

describe('runsViewActions', () => {
  it("offers what the welcome content's buttons did, as rows that run a command", () => {
    const labels = (state: Parameters<typeof runsViewActions>[0]) =>
      runsViewActions(state).map((action) => `${action.label} → ${action.command}`);
    expect(labels('unreachable')).toEqual([
      'Try Again → webdata.runs.refresh',
      'Change the Address… → webdata.openSettings',
    ]);
    expect(labels('unauthorized')).toEqual([
      'Set API Key… → webdata.setApiKey',
      'Change the Address… → webdata.openSettings',
    ]);
    expect(labels('rateLimited')).toEqual([
      'Try Again → webdata.runs.refresh',
      'Set API Key… → webdata.setApiKey',
    ]);
    expect(labels('error')).toEqual([
      'Try Again → webdata.runs.refresh',
      'Change the Address… → webdata.openSettings',
      'Show Log → webdata.showLog',
    ]);
  });
});
