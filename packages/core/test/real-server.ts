/**
 * Starts the real server (`@webdata/server`) on an ephemeral port, for this
 * package's tests and, through the workspace-only export
 * `@webdata/core/test-support/real-server`, the CLI's (not in the tarball). Imported
 * through a computed specifier so that type-checking this package does not
 * type-check the server's sources under this package's compiler settings;
 * the shape below is the part of `startServer` these tests use.
 */
export interface RealServer {
  url: string;
  apiKey: string;
  close(): Promise<void>;
  /** The server itself: `close(0)` stops it without draining (items in progress go back to the queue). */
  server: { close(drainMs?: number): Promise<void> };
}

export interface RealServerOptions {
  dataDir: string;
  allowPrivateNetworks?: boolean;
  logLevel?: string;
  rateLimitPerSecond?: number;
  rateLimitBurst?: number;
  workerConcurrency?: number;
  perHostConcurrency?: number;
  port?: number;
}

export async function startRealServer(options: RealServerOptions): Promise<RealServer> {
  const specifier = '@webdata/server';
  const module = (await import(specifier)) as {
    startServer(options: RealServerOptions): Promise<RealServer>;
  };
  return module.startServer({ port: 0, logLevel: 'silent', ...options });
}
