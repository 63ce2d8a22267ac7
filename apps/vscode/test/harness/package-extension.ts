import { execFileSync } from 'node:child_process';

const root = new URL('../../', import.meta.url).pathname;

/** Packs the extension into a vsix as `pnpm --filter @webdata/vscode package` does; returns its path. */
export function packageExtension(): string {
  const output = execFileSync(process.execPath, ['scripts/package.mjs'], { cwd: root, encoding: 'utf8' });
  const vsix = output.trim().split('\n').at(-1);
  if (!vsix?.endsWith('.vsix')) throw new Error(`packaging printed no vsix path:\n${output}`);
  return vsix;
}
