import { describe, expect, it } from 'vitest';
import type { BundledChromium } from './bundled-chromium.js';
import {
  CHROMIUM_CANDIDATES,
  type ChromiumLocation,
  type ChromiumProbes,
  isExecutableFile,
  locateChromium,
} from './chromium-locator.js';

describe('locateChromium', () => {
  const bundled: BundledChromium = {
    version: '147.0.0',
    directory: '/cache/webdata/chromium-147.0.0-x64',
    prepare: async () => ({
      path: '/cache/webdata/chromium-147.0.0-x64/chromium',
      env: { FONTCONFIG_FILE: 'x' },
    }),
  };
  /** A machine where only `present` exist, with or without the bundled package. */
  const machine = (present: string[], withBundled = true): ChromiumProbes => ({
    isExecutable: (path) => present.includes(path),
    bundled: () =>
      withBundled ? bundled : { reason: 'the bundled Chromium (@sparticuz/chromium) is not installed' },
  });
  const reasonOf = (location: ChromiumLocation) => ('reason' in location ? location.reason : '');
  const pathOf = async (location: ChromiumLocation) =>
    'reason' in location ? null : (await location.prepare()).path;

  it('uses the configured path and reports it when missing, without falling back', async () => {
    const found = locateChromium('/opt/c/chrome', {}, machine(['/opt/c/chrome', '/usr/bin/chromium']));
    expect(await pathOf(found)).toBe('/opt/c/chrome');
    expect('source' in found && found.source).toBe('configured');
    const missing = locateChromium('/nope/chrome', {}, machine(['/usr/bin/chromium']));
    expect(reasonOf(missing)).toMatch(/not found at the configured path \/nope\/chrome/);
  });

  it('prefers WEBDATA_CHROMIUM_PATH over the system and the bundled Chromium, and never falls back from it', async () => {
    const env = { WEBDATA_CHROMIUM_PATH: '/env/chromium' };
    const found = locateChromium(undefined, env, machine(['/env/chromium', '/usr/bin/chromium']));
    expect(await pathOf(found)).toBe('/env/chromium');
    expect('description' in found && found.description).toContain('WEBDATA_CHROMIUM_PATH');
    const missing = locateChromium(undefined, env, machine(['/usr/bin/chromium']));
    expect(reasonOf(missing)).toMatch(/\/env\/chromium.*WEBDATA_CHROMIUM_PATH/);
  });

  it("tries the system's usual locations in order, before the bundled Chromium", async () => {
    const found = locateChromium(undefined, {}, machine(['/snap/bin/chromium', '/usr/bin/google-chrome']));
    expect(await pathOf(found)).toBe('/usr/bin/google-chrome');
    expect('description' in found && found.description).toBe('/usr/bin/google-chrome (system)');
  });

  it('falls back to the bundled Chromium, with its libraries and fonts in the environment', async () => {
    const found = locateChromium(undefined, {}, machine([]));
    expect('source' in found && found.source).toBe('bundled');
    expect('description' in found && found.description).toMatch(
      /Chromium 147\.0\.0 bundled in @sparticuz\/chromium/,
    );
    expect('reason' in found ? null : await found.prepare()).toEqual(await bundled.prepare());
  });

  it('hides the system Chromium when WEBDATA_CHROMIUM_IGNORE_SYSTEM=1', () => {
    const env = { WEBDATA_CHROMIUM_IGNORE_SYSTEM: '1' };
    const found = locateChromium(undefined, env, machine(['/usr/bin/chromium']));
    expect('source' in found && found.source).toBe('bundled');
    const none = locateChromium(undefined, env, machine(['/usr/bin/chromium'], false));
    expect(reasonOf(none)).toMatch(/system's was ignored \(WEBDATA_CHROMIUM_IGNORE_SYSTEM=1/);
    // Any other value leaves the lookup as it is.
    const system = locateChromium(
      undefined,
      { WEBDATA_CHROMIUM_IGNORE_SYSTEM: '0' },
      machine(['/usr/bin/chromium']),
    );
    expect('source' in system && system.source).toBe('system');
  });

  it('says where it looked, why the bundled one is missing, and how to fix it when nothing is found', () => {
    const reason = reasonOf(locateChromium(undefined, {}, machine([], false)));
    expect(reason).toMatch(/^Chromium was not found \(looked in /);
    for (const candidate of CHROMIUM_CANDIDATES) expect(reason).toContain(candidate);
    expect(reason).toContain('@sparticuz/chromium) is not installed');
    expect(reason).toContain('apt-get install chromium');
    expect(reason).toContain('WEBDATA_CHROMIUM_PATH');
  });

  it('checks for an executable regular file', () => {
    expect(isExecutableFile(process.execPath)).toBe(true);
    expect(isExecutableFile('/')).toBe(false);
    expect(isExecutableFile('/definitely/not/here')).toBe(false);
  });
});
