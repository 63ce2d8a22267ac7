// `pnpm --filter @webdata/vscode package`: stages the extension (stage.mjs)
// and packs it into dist/webdata-<version>.vsix with @vscode/vsce.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stage } from './stage.mjs';

const folder = stage();
const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
const out = join(folder, '..', '..', 'dist', `webdata-${version}.vsix`);
// From this package's node_modules, so that it also runs outside a pnpm script (the UI test packs too).
const vsce = join(folder, '..', '..', 'node_modules', '.bin', 'vsce');
execFileSync(
  vsce,
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
