import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;

/** Where the built extension and suite are. */
export interface BuiltExtension {
  /** The staged extension folder (what the vsix holds). */
  extensionPath: string;
  /** The bundled mocha suite's entry, as VS Code's `extensionTestsPath` wants it. */
  suitePath: string;
  /** The bundled bench entry that runs inside the extension host (bench/host). */
  benchHostPath: string;
  /** The bundled activation bench entry that runs inside the extension host (bench/host/activation). */
  activationHostPath: string;
}

/** Bundles the extension and the suite and stages the extension, as `pnpm build` and packaging do. */
export function buildExtension(): BuiltExtension {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/stage.mjs'], { cwd: root, stdio: 'ignore' });
  return {
    extensionPath: join(root, 'out', 'extension'),
    suitePath: join(root, 'dist', 'test', 'suite', 'index'),
    benchHostPath: join(root, 'dist', 'bench', 'host', 'index'),
    activationHostPath: join(root, 'dist', 'bench', 'host', 'activation'),
  };
}
