// `pnpm --filter @webdata/vscode setup:vscode`: installs the cached code-server the
// real-VS-Code tests use (they install it themselves when it is missing; this is
// for doing it ahead, say under a lock on a shared machine).
import { ensureCodeServer } from '../test/harness/code-server-install.js';

console.log(ensureCodeServer().root);
