import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, type Stats, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, type ScreenshotAccess } from '@webdata/contract';

/** Name of the key file inside the signer's directory. */
export const SIGNING_KEYS_FILE = 'signing-keys.json';

/** Outcome of {@link UrlSigner.verify}. */
export type SignatureCheck = 'ok' | 'expired' | 'invalid';

/** The key file: the secret that signs, and the one it replaced (still verifying). */
interface Keyring {
  version: 1;
  current: { secret: string; created_at: number };
  /** The secret before the last rotation; it verifies URLs that were signed before `retired_at`. */
  previous: { secret: string; retired_at: number } | null;
}

/** Expiries as the URL carries them: decimal, no sign, no leading zeros (so one value has one spelling). */
const EXPIRES_PATTERN = /^(0|[1-9]\d{0,11})$/;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The path a signed screenshot URL points at, and the exact string its signature binds. */
export function signedScreenshotPath(runId: string, resultId: string): string {
  return `/api/v1/signed/screenshots/${encodeURIComponent(runId)}/${encodeURIComponent(resultId)}`;
}

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Signs and checks the capability URLs that serve screenshots without an API
 * key. The signature is an HMAC-SHA256, keyed by a 32-byte random secret kept
 * in `signing-keys.json` (mode 0600) in the given directory, over the exact
 * path and expiry, so changing any byte of either makes the URL invalid.
 *
 * `rotate()` starts signing with a fresh secret but keeps the previous one for
 * verification of URLs signed before the rotation (they expire on their own
 * within `LIMITS.maxSignedUrlTtlSeconds`). Only two secrets are kept, so a
 * second rotation invalidates every URL signed before the first one.
 *
 * The keyring is cached, and read again whenever the file changed (a `stat`
 * per signature), so `webdata-server secret rotate` run beside a running
 * server takes effect on that server's next signature: it never goes on
 * signing with a retired secret (whose URLs would be refused after a restart).
 */
export class UrlSigner {
  readonly keyFile: string;
  private keyring: Keyring | undefined;
  /** The key file as it was when {@link keyring} was read or written. */
  private keyringFile: Stats | undefined;

  constructor(readonly directory: string) {
    this.keyFile = join(directory, SIGNING_KEYS_FILE);
  }

  /** The signature (base64url HMAC) of `path` valid until `expiresAtUnixSeconds`. */
  sign(path: string, expiresAtUnixSeconds: number): string {
    if (!Number.isSafeInteger(expiresAtUnixSeconds) || expiresAtUnixSeconds < 0) {
      throw new RangeError(
        `expiry must be a non-negative whole number of seconds, got ${expiresAtUnixSeconds}`,
      );
    }
    return hmac(this.load().current.secret, path, String(expiresAtUnixSeconds));
  }

  /**
   * Whether `signature` was made by this signer for exactly `path` and
   * `expires` (`invalid` otherwise), and if so whether it has expired. A
   * signature is checked before the expiry so a forged URL never learns more
   * than `invalid`. Comparison is constant-time.
   */
  verify(
    path: string,
    expires: number | string,
    signature: string,
    nowSeconds = nowInSeconds(),
  ): SignatureCheck {
    const expiresText = typeof expires === 'number' ? String(expires) : expires;
    if (!EXPIRES_PATTERN.test(expiresText) || !SIGNATURE_PATTERN.test(signature)) return 'invalid';
    const expiresAt = Number(expiresText);
    const keyring = this.load();
    let valid = matches(hmac(keyring.current.secret, path, expiresText), signature);
    // The old secret only vouches for URLs it could have signed: ones that end
    // within the longest lifetime after it was retired.
    if (
      !valid &&
      keyring.previous &&
      expiresAt <= keyring.previous.retired_at + LIMITS.maxSignedUrlTtlSeconds
    ) {
      valid = matches(hmac(keyring.previous.secret, path, expiresText), signature);
    }
    if (!valid) return 'invalid';
    return expiresAt <= nowSeconds ? 'expired' : 'ok';
  }

  /**
   * A signed URL for a result's screenshot under `baseUrl` (the server's
   * public URL) and when it expires. The lifetime is clamped to
   * 1 s … `LIMITS.maxSignedUrlTtlSeconds`.
   */
  signedScreenshotUrl(
    baseUrl: string,
    runId: string,
    resultId: string,
    ttlSeconds: number,
    nowSeconds = nowInSeconds(),
  ): ScreenshotAccess {
    const ttl = Math.min(Math.max(Math.floor(ttlSeconds), 1), LIMITS.maxSignedUrlTtlSeconds);
    const expires = Math.floor(nowSeconds) + ttl;
    const path = signedScreenshotPath(runId, resultId);
    const signature = this.sign(path, expires);
    return {
      url: `${baseUrl.replace(/\/+$/, '')}${path}?expires=${expires}&signature=${signature}`,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** {@link verify} for the route `GET /api/v1/signed/screenshots/{runId}/{resultId}?expires&signature`. */
  verifySignedScreenshot(
    runId: string,
    resultId: string,
    query: { expires: string; signature: string },
    nowSeconds = nowInSeconds(),
  ): SignatureCheck {
    return this.verify(signedScreenshotPath(runId, resultId), query.expires, query.signature, nowSeconds);
  }

  /**
   * Starts signing with a new secret; the current one stays valid for the
   * URLs it already signed, and the one before it is forgotten.
   */
  rotate(nowSeconds = nowInSeconds()): void {
    const old = this.load();
    this.write({
      version: 1,
      current: { secret: newSecret(), created_at: nowSeconds },
      previous: { secret: old.current.secret, retired_at: nowSeconds },
    });
  }

  /** Forgets the cached keyring so the next call reads the file again. */
  reload(): void {
    this.keyring = undefined;
  }

  private load(): Keyring {
    const file = statIfExists(this.keyFile);
    if (this.keyring && file && this.keyringFile && sameFile(file, this.keyringFile)) return this.keyring;
    this.keyring = undefined;
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const fresh: Keyring = {
      version: 1,
      current: { secret: newSecret(), created_at: nowInSeconds() },
      previous: null,
    };
    try {
      // `wx`: of two processes starting at once, one creates the file and the other reads it.
      writeFileSync(this.keyFile, JSON.stringify(fresh), { flag: 'wx', mode: 0o600 });
      this.keyringFile = statSync(this.keyFile);
      this.keyring = fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Stat before reading: a rotation landing in between is then read again next time.
      this.keyringFile = statSync(this.keyFile);
      this.keyring = parseKeyring(readFileSync(this.keyFile, 'utf8'), this.keyFile);
    }
    return this.keyring;
  }

  /** Replaces the key file atomically (temporary file, then rename), never readable by others. */
  private write(keyring: Keyring): void {
    const temporary = `${this.keyFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(keyring), { mode: 0o600 });
    chmodSync(temporary, 0o600); // the mode above is masked by umask only when the file is new
    const written = statSync(temporary);
    renameSync(temporary, this.keyFile);
    this.keyringFile = written;
    this.keyring = keyring;
  }
}

function statIfExists(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether two stats are of the same file, unchanged (a rotation renames a new file over it). */
function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.mtimeMs === b.mtimeMs && a.size === b.size;
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function hmac(secret: string, path: string, expires: string): string {
  // The newline cannot occur in a URL path, so (path, expires) maps to one message.
  return createHmac('sha256', Buffer.from(secret, 'base64url'))
    .update(`v1\n${path}\n${expires}`)
    .digest('base64url');
}

/** Compares the signature text, not its decoded bytes: base64url decoding ignores some bit flips. */
function matches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'latin1');
  const b = Buffer.from(given, 'latin1');
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseKeyring(text: string, file: string): Keyring {
  const value = JSON.parse(text) as Partial<Keyring>;
  const secretOk = (secret: unknown) =>
    typeof secret === 'string' && Buffer.from(secret, 'base64url').length >= 32;
  if (value.version !== 1 || !value.current || !secretOk(value.current.secret)) {
    throw new Error(`${file} is not a webdata signing keyring`);
  }
  if (value.previous && !secretOk(value.previous.secret))
    throw new Error(`${file} has a malformed previous key`);
  return { version: 1, current: value.current, previous: value.previous ?? null };
}
