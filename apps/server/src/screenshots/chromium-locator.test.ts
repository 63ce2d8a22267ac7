import { describe, expect, it } from 'vitest';
import { CHROMIUM_CANDIDATES, isExecutableFile, locateChromium } from './chromium-locator.js';

describe('locateChromium', () => {
  const only =
    (...present: string[]) =>
    (path: string) =>
      present.includes(path);

  it('uses the configured path and reports it when missing, without falling back', () => {
    expect(locateChromium('/opt/c/chrome', {}, only('/opt/c/chrome', '/usr/bin/chromium'))).toEqual({
      path: '/opt/c/chrome',
    });
    const missing = locateChromium('/nope/chrome', {}, only('/usr/bin/chromium'));
    expect('reason' in missing && missing.reason).toMatch(/not found at the configured path \/nope\/chrome/);
  });

  it('prefers WEBDATA_CHROMIUM_PATH over the usual locations', () => {
    const env = { WEBDATA_CHROMIUM_PATH: '/env/chromium' };
    expect(locateChromium(undefined, env, only('/env/chromium', '/usr/bin/chromium'))).toEqual({
      path: '/env/chromium',
    });
    const missing = locateChromium(undefined, env, only('/usr/bin/chromium'));
    expect('reason' in missing && missing.reason).toMatch(/\/env\/chromium.*WEBDATA_CHROMIUM_PATH/);
  });

  it('tries the usual locations in order', () => {
    expect(locateChromium(undefined, {}, only('/snap/bin/chromium', '/usr/bin/google-chrome'))).toEqual({
      path: '/usr/bin/google-chrome',
    });
  });

  it('says where it looked and how to fix it when nothing is found', () => {
    const none = locateChromium(undefined, {}, () => false);
    expect('reason' in none).toBe(true);
    const reason = 'reason' in none ? none.reason : '';
    expect(reason).toMatch(/^Chromium was not found \(looked in /);
    for (const candidate of CHROMIUM_CANDIDATES) expect(reason).toContain(candidate);
    expect(reason).toContain('apt-get install chromium');
    expect(reason).toContain('WEBDATA_CHROMIUM_PATH');
  });

  it('checks for an executable regular file', () => {
    expect(isExecutableFile(process.execPath)).toBe(true);
    expect(isExecutableFile('/')).toBe(false);
    expect(isExecutableFile('/definitely/not/here')).toBe(false);
  });
});
