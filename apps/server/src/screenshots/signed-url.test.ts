import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS, ScreenshotAccess, SignedScreenshotQuery } from '@webdata/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNING_KEYS_FILE, signedScreenshotPath, UrlSigner } from './signed-url.js';

const NOW = 1_760_000_000;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/.?%';

/** Every string that differs from `text` in exactly one character (substituted or deleted), and one longer. */
function singleCharacterChanges(text: string, alphabet: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    out.add(text.slice(0, i) + text.slice(i + 1));
    for (const c of alphabet) if (c !== text[i]) out.add(text.slice(0, i) + c + text.slice(i + 1));
  }
  out.add(`${text}0`);
  out.add(`0${text}`);
  out.delete(text);
  return [...out];
}

describe('UrlSigner', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'webdata-signer-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies what it signed, until the expiry', () => {
    const signer = new UrlSigner(dir);
    const path = signedScreenshotPath('run_1', 'res_1');
    const signature = signer.sign(path, NOW + 60);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signer.verify(path, NOW + 60, signature, NOW)).toBe('ok');
    expect(signer.verify(path, String(NOW + 60), signature, NOW + 59)).toBe('ok');
    expect(signer.verify(path, NOW + 60, signature, NOW + 60)).toBe('expired');
    expect(signer.verify(path, NOW + 60, signature, NOW + 10_000)).toBe('expired');
  });

  it('answers invalid to any one-character change of path, expiry or signature', () => {
    const signer = new UrlSigner(dir);
    const path = signedScreenshotPath('run_abc', 'res_xyz');
    const expires = String(NOW + 900);
    const signature = signer.sign(path, Number(expires));
    for (const p of singleCharacterChanges(path, ALPHABET)) {
      expect(signer.verify(p, expires, signature, NOW), p).toBe('invalid');
    }
    for (const e of singleCharacterChanges(expires, '0123456789a -')) {
      expect(signer.verify(path, e, signature, NOW), e).toBe('invalid');
    }
    for (const s of singleCharacterChanges(signature, ALPHABET)) {
      expect(signer.verify(path, expires, s, NOW), s).toBe('invalid');
    }
    // Sanity: the untouched triple still passes after all those attempts.
    expect(signer.verify(path, expires, signature, NOW)).toBe('ok');
  });

  it('does not accept a signature from another secret, nor an expired-looking forgery as "expired"', () => {
    const a = new UrlSigner(dir);
    const otherDir = mkdtempSync(join(tmpdir(), 'webdata-signer-'));
    try {
      const b = new UrlSigner(otherDir);
      const path = signedScreenshotPath('r', 's');
      expect(b.verify(path, NOW + 5, a.sign(path, NOW + 5), NOW)).toBe('invalid');
      // A forged signature with a past expiry is invalid, not expired.
      expect(a.verify(path, NOW - 5, b.sign(path, NOW - 5), NOW)).toBe('invalid');
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('keeps the secret in a 0600 file that a new signer reuses', () => {
    const first = new UrlSigner(join(dir, 'nested'));
    const path = signedScreenshotPath('run_1', 'res_1');
    const signature = first.sign(path, NOW + 60);
    const file = join(dir, 'nested', SIGNING_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { current: { secret: string } };
    expect(Buffer.from(stored.current.secret, 'base64url')).toHaveLength(32);
    const second = new UrlSigner(join(dir, 'nested'));
    expect(second.verify(path, NOW + 60, signature, NOW)).toBe('ok');
  });

  it('keeps URLs signed before a rotation valid, and forgets them at the second rotation', () => {
    const signer = new UrlSigner(dir);
    const path = signedScreenshotPath('run_1', 'res_1');
    const beforeFirst = signer.sign(path, NOW + 600);
    signer.rotate(NOW + 10);
    expect(statSync(signer.keyFile).mode & 0o777).toBe(0o600);
    const afterFirst = signer.sign(path, NOW + 600);
    expect(afterFirst).not.toBe(beforeFirst);
    expect(signer.verify(path, NOW + 600, beforeFirst, NOW + 20)).toBe('ok');
    expect(signer.verify(path, NOW + 600, afterFirst, NOW + 20)).toBe('ok');
    // Another process sees the rotation too.
    expect(new UrlSigner(dir).verify(path, NOW + 600, beforeFirst, NOW + 20)).toBe('ok');

    signer.rotate(NOW + 30);
    expect(signer.verify(path, NOW + 600, beforeFirst, NOW + 40)).toBe('invalid');
    expect(signer.verify(path, NOW + 600, afterFirst, NOW + 40)).toBe('ok');
    const stored = JSON.parse(readFileSync(signer.keyFile, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['current', 'previous', 'version']);
  });

  it('signs with a rotation made by another process from its next signature on', () => {
    const running = new UrlSigner(dir);
    const path = signedScreenshotPath('run_1', 'res_1');
    const before = running.sign(path, NOW + 600);
    new UrlSigner(dir).rotate(NOW + 10); // `webdata-server secret rotate`, another process
    const after = running.sign(path, NOW + 600);
    expect(after).not.toBe(before);
    // What the running signer now signs is what any fresh reader of the file (a restart) signs.
    expect(new UrlSigner(dir).sign(path, NOW + 600)).toBe(after);
    expect(running.verify(path, NOW + 600, before, NOW + 20)).toBe('ok');
  });

  it('lets the retired secret vouch only for expiries it could have signed', () => {
    const signer = new UrlSigner(dir);
    const path = signedScreenshotPath('run_1', 'res_1');
    const tooLate = NOW + LIMITS.maxSignedUrlTtlSeconds + 100;
    const signature = signer.sign(path, tooLate); // sign() itself does not cap
    signer.rotate(NOW);
    expect(signer.verify(path, tooLate, signature, NOW + 1)).toBe('invalid');
  });

  it('builds a signed screenshot URL the contract accepts, with a capped lifetime', () => {
    const signer = new UrlSigner(dir);
    const access = signer.signedScreenshotUrl('https://data.example.org/', 'run_1', 'res_2', 900, NOW);
    expect(ScreenshotAccess.parse(access)).toEqual(access);
    expect(access.expires_at).toBe(new Date((NOW + 900) * 1000).toISOString());
    const url = new URL(access.url);
    expect(url.origin + url.pathname).toBe('https://data.example.org/api/v1/signed/screenshots/run_1/res_2');
    const query = SignedScreenshotQuery.parse(Object.fromEntries(url.searchParams));
    expect(query.expires).toBe(String(NOW + 900));
    expect(signer.verifySignedScreenshot('run_1', 'res_2', query, NOW)).toBe('ok');
    expect(signer.verifySignedScreenshot('run_1', 'res_3', query, NOW)).toBe('invalid');
    expect(signer.verifySignedScreenshot('run_2', 'res_2', query, NOW)).toBe('invalid');
    expect(signer.verifySignedScreenshot('run_1', 'res_2', query, NOW + 900)).toBe('expired');

    const long = signer.signedScreenshotUrl(
      'http://127.0.0.1:8787',
      'r',
      's',
      10 * LIMITS.maxSignedUrlTtlSeconds,
      NOW,
    );
    expect(Date.parse(long.expires_at) / 1000).toBe(NOW + LIMITS.maxSignedUrlTtlSeconds);
  });

  it('refuses to sign a non-integer or negative expiry', () => {
    const signer = new UrlSigner(dir);
    expect(() => signer.sign('/x', 1.5)).toThrow(RangeError);
    expect(() => signer.sign('/x', -1)).toThrow(RangeError);
  });
});
