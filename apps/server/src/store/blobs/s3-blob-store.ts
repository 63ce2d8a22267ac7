import { AwsClient } from 'aws4fetch';
import { storeUnavailable } from '../unavailable.js';
import { type BlobStore, checkBlobKey } from './blob-store.js';

/** Where an S3-compatible bucket is and how to sign for it. */
export interface S3BlobStoreOptions {
  /** Base URL of the S3 API, e.g. `https://s3.eu-west-1.amazonaws.com` or a MinIO address. */
  endpoint: string;
  bucket: string;
  /** Key prefix inside the bucket (`webdata/`), empty for the bucket's root. */
  prefix?: string | undefined;
  region?: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), addressed
 * path-style (`<endpoint>/<bucket>/<key>`), which every S3-compatible server
 * accepts. An S3 PUT is atomic: a reader sees the old object or the new one.
 * Requests are signed with AWS Signature V4 by `aws4fetch`.
 */
export class S3BlobStore implements BlobStore {
  readonly description: string;
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly prefix: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region ?? 'us-east-1',
      service: 's3',
    });
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
    this.prefix = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : '';
    this.description = `s3 bucket ${options.bucket}${this.prefix ? `/${this.prefix}` : ''} at ${new URL(options.endpoint).host}`;
  }

  private url(key: string): string {
    return `${this.base}/${this.prefix}${checkBlobKey(key)}`;
  }

  /** Sends a signed request; an unreachable server or a 5xx is `unavailable` (503), like a lost database. */
  private async send(url: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      response = await this.client.fetch(url, init);
    } catch (error) {
      throw storeUnavailable(error);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw storeUnavailable(new Error(`S3 answered ${response.status} to ${init.method ?? 'GET'}`));
    }
    return response;
  }

  private static async refuse(response: Response, what: string): Promise<never> {
    const text = await response.text();
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? '';
    throw new Error(`S3 refused ${what}: ${response.status} ${code}`.trim());
  }

  async put(key: string, body: Buffer | string): Promise<void> {
    const response = await this.send(this.url(key), {
      method: 'PUT',
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    if (!response.ok) await S3BlobStore.refuse(response, `PUT ${key}`);
    await response.body?.cancel();
  }

  async get(key: string): Promise<Buffer | null> {
    const response = await this.send(this.url(key));
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) await S3BlobStore.refuse(response, `GET ${key}`);
    try {
      return Buffer.from(await response.arrayBuffer());
    } catch (error) {
      // Cut mid-body (the length is checked, so a cut body is never returned as whole).
      throw storeUnavailable(error);
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    checkBlobKey(prefix);
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix: `${this.prefix}${prefix}` });
      if (token) query.set('continuation-token', token);
      const response = await this.send(`${this.base}?${query}`);
      if (!response.ok) await S3BlobStore.refuse(response, `LIST ${prefix}`);
      const xml = await response.text();
      // Our keys hold no XML-escaped characters (checkBlobKey), so the listing's <Key>s are literal.
      const keys = [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((match) => match[1]!);
      const next = /<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1];
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) && next ? unescapeXml(next) : undefined;
      for (const key of keys) {
        const deleted = await this.send(`${this.base}/${key}`, { method: 'DELETE' });
        if (!deleted.ok && deleted.status !== 404) await S3BlobStore.refuse(deleted, `DELETE ${key}`);
        await deleted.body?.cancel();
      }
    } while (token);
  }
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
}
