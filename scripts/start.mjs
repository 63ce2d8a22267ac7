// The README's first command ends here: it builds and starts the service on
// its embedded default. Until the server package exists it says so.
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../apps/server/package.json', import.meta.url))) {
  console.error('The webdata server is not built yet (apps/server lands with issue 3).');
  process.exit(1);
}
