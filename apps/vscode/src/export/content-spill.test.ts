import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeResult } from '../test-support/runs.js';
import { ContentSpill } from './content-spill.js';

describe('ContentSpill', () => {
  it('puts each content of a page in its file, hands back the results without it, and reads each back', () => {
    const spill = new ContentSpill();
    try {
      const big = `# Big\n\n${'ünïcode text '.repeat(100_000)}`;
      const kept = spill.keep([
        { ...makeResult('run_1', 'res_1'), content: big },
        { ...makeResult('run_1', 'res_2'), content: null },
      ]);
      const second = spill.keep([{ ...makeResult('run_1', 'res_3'), content: ['https://a.example/x'] }]);
      expect(kept.every((result) => !('content' in result))).toBe(true);
      expect(second.every((result) => !('content' in result))).toBe(true);
      // On disk, not in memory: the file holds the page's text.
      expect(statSync(join(spill.folder, 'contents')).size).toBe(spill.size);
      expect(spill.size).toBeGreaterThan(big.length);
      expect(spill.contentOf({ id: 'res_3' })).toEqual(['https://a.example/x']);
      expect(spill.contentOf({ id: 'res_1' })).toBe(big);
      expect(spill.contentOf({ id: 'res_2' })).toBeUndefined();
    } finally {
      spill.dispose();
    }
    expect(existsSync(spill.folder)).toBe(false);
  });

  it('makes a folder of its own for each save', () => {
    const a = new ContentSpill();
    const b = new ContentSpill();
    expect(a.folder).not.toBe(b.folder);
    expect(readdirSync(a.folder)).toEqual(['contents']);
    a.dispose();
    b.dispose();
  });
});
