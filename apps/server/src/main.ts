/**
 * The `webdata-server` command line:
 *   webdata-server start [--port N] [--host H] [--data-dir D] [--allow-private-networks]
 *                        [--role all|api|worker] [--database-url postgres://…]
 *   webdata-server keys create [--name N] [--owner O] | keys list | keys revoke <keyId>
 *   webdata-server secret rotate
 * Settings also come from the environment (WEBDATA_PORT, WEBDATA_HOST, WEBDATA_DATA_DIR, …; see README).
 */

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config-env.js';
import { limitJitInlining } from './jit-inlining-budget.js';
import { createApiKey } from './keys.js';
import { UrlSigner } from './screenshots/signed-url.js';
import { WebDataServer } from './server.js';
import { openStore, SQLITE_FILE } from './store/open-store.js';

const USAGE = `usage:
  webdata-server start [--port N] [--host H] [--data-dir DIR] [--allow-private-networks] [--workers N]
                       [--role all|api|worker] [--database-url postgres://USER@HOST/DB]
  webdata-server keys create [--name NAME] [--owner OWNER]
  webdata-server keys list
  webdata-server keys revoke KEY_ID
  webdata-server secret rotate
keys and secret act on the store of --data-dir (or --database-url), as start does: give them
the same settings as the server, or the key lands in another store. Settings: the package README.`;

/** A command line that cannot be run: its message, then the usage, exit code 2. */
function usageError(message: string): number {
  console.error(`webdata-server: ${message}\n${USAGE}`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    // parseArgs throws for an unknown option or a missing value: a usage error, not a crash (exit 1).
    return usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, {
      port: values.port,
      host: values.host,
      dataDir: values['data-dir'],
      allowPrivateNetworks: values['allow-private-networks'],
      workers: values.workers,
      role: values.role,
      databaseUrl: values['database-url'],
    });
  } catch (error) {
    // A setting out of range (`--port abc`, `WEBDATA_ROLE=foo`): the message names it.
    return usageError((error as Error).message);
  }
  const [command, sub, arg] = positionals;
  if (command === 'start') return start(config);
  // It read as 'unknown command "keys revoke"', though the command is known and only its id is missing.
  if (command === 'keys' && sub === 'revoke' && !arg) {
    return usageError('keys revoke needs the KEY_ID to revoke (webdata-server keys list shows them)');
  }
  const known =
    (command === 'keys' && (sub === 'create' || sub === 'list' || (sub === 'revoke' && arg))) ||
    (command === 'secret' && sub === 'rotate');
  if (!known) return usageError(`unknown command "${positionals.join(' ')}"`);
  // Listing or revoking keys of a data directory without a store: the wrong --data-dir, most likely.
  // Opening it would make an empty store there and answer "no keys".
  const sqliteFile = join(config.dataDir, SQLITE_FILE);
  if (command === 'keys' && sub !== 'create' && !config.databaseUrl && !existsSync(sqliteFile)) {
    console.error(
      `webdata-server: no store in ${config.dataDir} (no ${SQLITE_FILE}): give the --data-dir (or --database-url) the server runs with`,
    );
    return 1;
  }
  const store = openStore(config);
  try {
    if (command === 'keys' && sub === 'create') {
      const { key, record } = await createApiKey(store, { name: values.name, owner: values.owner });
      console.log(
        `created key ${record.id} for owner ${record.owner} in ${store.description}:\n${key}\n(shown once; keep it safe)`,
      );
      return 0;
    }
    if (command === 'keys' && sub === 'list') {
      for (const key of await store.listApiKeys()) {
        console.log(
          `${key.id}\towner=${key.owner}\tname=${key.name}\tcreated=${key.createdAt}${key.revokedAt ? `\trevoked=${key.revokedAt}` : ''}`,
        );
      }
      return 0;
    }
    if (command === 'keys' && sub === 'revoke' && arg) {
      const revoked = await store.revokeApiKey(arg);
      console.log(revoked ? `revoked ${arg}` : `no active key ${arg} in ${store.description}`);
      return revoked ? 0 : 1;
    }
    const signer = new UrlSigner(config.dataDir);
    signer.rotate();
    console.log(
      `rotated the URL signing secret in ${signer.keyFile}: servers using this data directory, running ones too, ` +
        'sign new URLs with it from their next URL on; URLs signed before stay valid until they expire ' +
        '(a second rotation invalidates them)',
    );
    return 0;
  } finally {
    await store.close();
  }
}

function parseArguments(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'allow-private-networks': { type: 'boolean' },
      workers: { type: 'string' },
      role: { type: 'string' },
      'database-url': { type: 'string' },
      name: { type: 'string' },
      owner: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** A path as one shell word: as it is when nothing in it needs quoting, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The key made on first start is also kept in `first-api-key` (mode 0600) in
 * the data directory, for whoever missed the banner; the database itself only
 * holds hashes. The key is printed only on the start that made it: service
 * logs keep every start's banner, so later starts name the file instead.
 */
const FIRST_KEY_FILE = 'first-api-key';

async function start(config: ReturnType<typeof loadConfig>): Promise<number> {
  // Before the converter threads start and anything runs hot enough for TurboFan.
  limitJitInlining();
  const server = new WebDataServer(config);
  if (!config.serveApi) {
    // A worker serves no HTTP: it claims work from the shared store until stopped.
    await server.listen();
    console.log(`webdata worker is running  (store: ${server.storeDescription})`);
  } else {
    const keyFile = join(config.dataDir, FIRST_KEY_FILE);
    const active = (await server.store.listApiKeys()).filter((key) => key.revokedAt === null);
    let createdKey: string | null = null;
    if (active.length === 0) {
      createdKey = (await createApiKey(server.store, { name: 'first' })).key;
      writeFileSync(keyFile, `${createdKey}\n`, { mode: 0o600 });
    }
    const url = await server.listen();
    console.log(
      `webdata is listening on ${url}  (data: ${config.dataDir}; store: ${server.storeDescription})`,
    );
    if (createdKey) {
      console.log(`API key: ${createdKey}`);
      console.log(`(made now and printed only now; also kept in ${keyFile}, mode 0600)`);
    } else {
      const saved = existsSync(keyFile) ? ` (the first one is in ${keyFile})` : '';
      // The commands act on the store they are given, so the hint gives this server's.
      const where = config.databaseUrl ? ' --database-url URL' : ` --data-dir ${shellWord(config.dataDir)}`;
      console.log(
        `API keys: \`webdata-server keys list${where}\`${saved}; a new one: \`webdata-server keys create${where}\``,
      );
    }
    console.log(`try: curl -H "x-api-key: <key>" ${url}/api/v1/runs   (OpenAPI: ${url}/api/v1/openapi.json)`);
  }
  if (config.runWorkers) {
    const chromium = server.screenshotChromium();
    console.log(
      'reason' in chromium
        ? `screenshots are off: ${chromium.reason}`
        : `screenshots: ${chromium.description}`,
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down (finishing or requeueing work in progress)`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return new Promise<number>(() => {});
}

/**
 * An error's message followed by its causes'. The store wraps a database it
 * cannot reach as "storage is unavailable for a moment" (what an HTTP client
 * should hear); a person starting the server needs the reason underneath
 * (`connect ECONNREFUSED 127.0.0.1:5432`, a password refused).
 */
function describeFailure(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    // Connecting to `localhost` tries each of its addresses and fails with an AggregateError of them, message empty.
    const message =
      current instanceof AggregateError && !current.message
        ? current.errors.map((each) => (each instanceof Error ? each.message : String(each))).join(', ')
        : current instanceof Error
          ? current.message
          : String(current);
    if (message && !messages.includes(message)) messages.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return messages.join(': ');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`webdata-server: ${describeFailure(error)}`);
    process.exit(1);
  },
);
