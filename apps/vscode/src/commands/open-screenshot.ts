import type { Command } from '../services.js';
import { resultOf } from '../tree/node-argument.js';
import { showError } from '../ui/show-error.js';

/** Open Screenshot: downloads the PNG into the extension's storage and opens it in the image preview. */
export const openScreenshot: Command = {
  id: 'webdata.result.openScreenshot',
  async run({ model, screenshots, log }, node?: unknown) {
    const target = resultOf(node);
    if (!target) return undefined;
    try {
      const result = model.result(target.runId, target.resultId);
      return await screenshots.open(target.runId, target.resultId, result?.title ?? '');
    } catch (error) {
      void showError(log, 'Could not open the screenshot', error);
      return undefined;
    }
  },
};
