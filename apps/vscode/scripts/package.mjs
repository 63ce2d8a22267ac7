// `pnpm --filter @webdata/vscode package`: stages the extension (stage.mjs)
// and packs it into dist/webdata-<version>.vsix with @vscode/vsce.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stage } from './stage.mjs';

const folder = stage();
const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
const out = join(folder, '..', '..', 'dist', `webdata-${version}.vsix`);
execFileSync(
  'vsce',
  [
    'package',
    '--no-dependencies',
    // Relative links (the README's screenshot) resolve inside the package; there is no public repository to point at.
    '--no-rewrite-relative-links',
    '--allow-missing-repository',
    '--out',
    out,
  ],
  { cwd: folder, stdio: 'inherit' },
);
console.log(out);
