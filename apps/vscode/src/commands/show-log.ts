import type { Command } from '../services.js';

/** Web Data: Show Log, the output channel. */
export const showLog: Command = {
  id: 'webdata.showLog',
  run({ log }) {
    log.show();
  },
};
