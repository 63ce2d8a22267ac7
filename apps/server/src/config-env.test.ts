import { describe, expect, it } from 'vitest';
import { loadConfig } from './config-env.js';

describe('settings from the environment', () => {
  it('reads switches both ways', () => {
    for (const on of ['1', 'true', 'YES', 'on']) {
      expect(loadConfig({ WEBDATA_ALLOW_PRIVATE_NETWORKS: on }).allowPrivateNetworks).toBe(true);
    }
    for (const off of ['0', 'false', 'No', 'off']) {
      expect(loadConfig({ WEBDATA_RUN_WORKERS: off }).runWorkers).toBe(false);
    }
    const chosen = loadConfig({
      WEBDATA_PUBLIC_URL: 'https://data.example.org',
      WEBDATA_LOG_LEVEL: 'warn',
    });
    expect({ publicUrl: chosen.publicUrl, logLevel: chosen.logLevel }).toEqual({
      publicUrl: 'https://data.example.org',
      logLevel: 'warn',
    });
  });

  it("reads the search's memory budget (0 turns its in-memory first stage off)", () => {
    expect(loadConfig({}).searchMemoryMb).toBe(512);
    expect(loadConfig({ WEBDATA_SEARCH_MEMORY_MB: '0' }).searchMemoryMb).toBe(0);
    expect(loadConfig({ WEBDATA_SEARCH_MEMORY_MB: '2048' }).searchMemoryMb).toBe(2048);
    expect(() => loadConfig({ WEBDATA_SEARCH_MEMORY_MB: '-1' })).toThrow(/^WEBDATA_SEARCH_MEMORY_MB must be/);
  });

  // Each was accepted: a mistyped switch meant off, a public URL that is no URL made every signed
  // screenshot URL unusable, and an unknown log level failed inside pino without the variable's name.
  it.each([
    [
      'WEBDATA_ALLOW_PRIVATE_NETWORKS',
      'maybe',
      /^WEBDATA_ALLOW_PRIVATE_NETWORKS must be 1, true, yes, on or 0, false, no, off, got "maybe"$/,
    ],
    ['WEBDATA_RUN_WORKERS', 'yes please', /^WEBDATA_RUN_WORKERS must be .* got "yes please"$/],
    [
      'WEBDATA_PUBLIC_URL',
      'data.example.org',
      /^WEBDATA_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL, got "data.example.org"$/,
    ],
    ['WEBDATA_PUBLIC_URL', 'ftp://data.example.org', /^WEBDATA_PUBLIC_URL must be an absolute/],
    [
      'WEBDATA_LOG_LEVEL',
      'verbose',
      /^WEBDATA_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"$/,
    ],
  ])('refuses %s=%s naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
