// `pnpm pack:client [DIR]`: builds @webdata/contract and @webdata/core and
// packs them with `pnpm pack` (workspace:* becomes the real version, the
// workspace-only `source` export condition is dropped) into DIR (default
// dist/packages). Install the two tarballs in any project with npm, pnpm or
// yarn; their other dependencies come from the npm registry.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const destination = resolve(process.argv[2] ?? `${root}dist/packages`);
mkdirSync(destination, { recursive: true });
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };

function step(args, cwd = root) {
  const result = spawnSync('pnpm', args, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env });
  if (result.status !== 0) {
    console.error(`pack:client: pnpm ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

for (const name of ['contract', 'core']) {
  step(['run', 'build'], `${root}packages/${name}`);
  step(['pack', '--pack-destination', destination], `${root}packages/${name}`);
}
for (const file of readdirSync(destination).filter((f) => /^webdata-(contract|core)-.*\.tgz$/.test(f))) {
  console.log(resolve(destination, file));
}
