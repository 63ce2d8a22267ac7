// Lays out the extension as it ships, in out/extension/: the manifest (this
// package.json with the marketplace name `webdata`, since a scoped workspace
// name is not a valid extension name, and without the workspace's scripts and
// dependencies, which are bundled), the bundle, the README, changelog,
// licence, media and walkthrough. The vsix is packed from this folder, and the
// integration tests load the extension from it, so they test what ships.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const STAGE = join(root, 'out', 'extension');

export function stage() {
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(join(STAGE, 'dist'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { scripts, dependencies, devDependencies, private: _private, ...shipped } = manifest;
  // `files` says what the vsix holds (vsce packs the folder otherwise, and warns).
  const files = [
    'dist/extension.js',
    'dist/parts.js',
    'dist/core.js',
    'media',
    'walkthrough',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
  ];
  writeFileSync(
    join(STAGE, 'package.json'),
    `${JSON.stringify({ ...shipped, name: 'webdata', files }, null, 2)}\n`,
  );
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE']) cpSync(join(root, file), join(STAGE, file));
  for (const folder of ['media', 'walkthrough'])
    cpSync(join(root, folder), join(STAGE, folder), { recursive: true });
  for (const file of ['extension.js', 'parts.js', 'core.js'])
    cpSync(join(root, 'dist', file), join(STAGE, 'dist', file));
  return STAGE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(stage());
