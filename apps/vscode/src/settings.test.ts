import { describe, expect, it } from 'vitest';
import { configuredAddress, DEFAULT_BASE_URL, type SettingsReader, serviceAddress } from './settings.js';

describe('serviceAddress', () => {
  it('keeps an address that names its scheme', () => {
    expect(serviceAddress('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(serviceAddress(' https://webdata.example.com/ ')).toBe('https://webdata.example.com/');
  });

  it('puts http:// before a local address typed without a scheme, https:// before another', () => {
    expect(serviceAddress('127.0.0.1:18787')).toBe('http://127.0.0.1:18787');
    // `new URL('localhost:8787')` is a URL of the scheme `localhost:`: not left as it is.
    expect(serviceAddress('localhost:8787')).toBe('http://localhost:8787');
    expect(serviceAddress('192.168.1.20:8787')).toBe('http://192.168.1.20:8787');
    expect(serviceAddress('webdata.example.com')).toBe('https://webdata.example.com');
  });

  it('is the default address when the setting is empty', () => {
    expect(serviceAddress(undefined)).toBe(DEFAULT_BASE_URL);
    expect(serviceAddress('  ')).toBe(DEFAULT_BASE_URL);
  });
});

describe('configuredAddress', () => {
  const settings = (
    values: Record<string, { globalValue?: string; workspaceValue?: string }>,
  ): SettingsReader => ({
    inspect: <T>(key: string) => values[key] as { globalValue?: T; workspaceValue?: T } | undefined,
  });

  it('reads the Service Address, else the former webdata.baseUrl, which users have in their settings files', () => {
    expect(configuredAddress(settings({ serviceAddress: { globalValue: 'http://a:1' } }))).toBe('http://a:1');
    expect(configuredAddress(settings({ baseUrl: { globalValue: 'http://old:2' } }))).toBe('http://old:2');
    expect(
      configuredAddress(
        settings({
          serviceAddress: { globalValue: 'http://a:1' },
          baseUrl: { workspaceValue: 'http://old:2' },
        }),
      ),
    ).toBe('http://a:1');
    expect(
      configuredAddress(
        settings({ serviceAddress: { globalValue: 'http://a:1', workspaceValue: 'http://w:3' } }),
      ),
    ).toBe('http://w:3');
    expect(configuredAddress(settings({}))).toBeUndefined();
  });
});
