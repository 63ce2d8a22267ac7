import type { Command } from '../services.js';

/**
 * Web Data: Check the Service Now: while the service does not answer (the
 * status bar item, which runs this on a click), asks its `/healthz` at once
 * rather than at the next check, and backs off again from 2 s.
 */
export const checkService: Command = {
  id: 'webdata.checkService',
  run({ outageWatch }) {
    outageWatch.checkNow();
  },
};
