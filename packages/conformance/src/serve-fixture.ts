/**
 * `pnpm --filter @webdata/conformance fixture [--host H] [--port N]`: serves
 * the fixture site until stopped (Ctrl-C), for a server under test that is
 * not ours: point it at the printed URL with `WEBDATA_FIXTURE_URL`. The host
 * defaults to 127.0.0.1; a server on another machine needs one it can reach
 * (`--host 0.0.0.0`, then the machine's address in `WEBDATA_FIXTURE_URL`).
 */
import { parseArgs } from 'node:util';
import { FixtureSite } from './fixture-site.js';

const { values } = parseArgs({
  options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: '0' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`fixture: --port ${values.port} is not a port number (0-65535)\n`);
  process.exit(2);
}
const site = new FixtureSite();
const url = await site.start({ host: values.host, port });
process.stdout.write(`${url}\n`);
process.stderr.write(`serving the conformance fixture site; WEBDATA_FIXTURE_URL=${url} (Ctrl-C stops)\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void site.stop().then(() => process.exit(0)));
}
