// The README's first command ends here: build the server (and what it
// depends on) with turbo, then start it on its embedded default
// (127.0.0.1:8787, SQLite under the user's state folder). Arguments are passed
// on: `pnpm start -- --port 9000 --data-dir ./data`.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const build = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', '--filter=@webdata/server...', '--output-logs=errors-only'],
  {
    stdio: 'inherit',
    env,
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);
// `pnpm start -- --port 9000` passes the `--` along; the server wants only the flags.
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
const server = spawnSync(
  process.execPath,
  [new URL('../apps/server/bin/webdata-server.mjs', import.meta.url).pathname, 'start', ...args],
  { stdio: 'inherit', env },
);
process.exit(server.status ?? 0);
