import type { Run, RunStatus } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { RunSnapshots } from './run-snapshots.js';

const run = (id: string, status: RunStatus = 'running'): Run => ({
  id,
  status,
  type: 'crawl',
  urls: ['https://example.org/'],
  created_at: '2026-11-22T00:00:00.000Z',
  updated_at: '2026-11-22T00:00:00.000Z',
  started_at: null,
  finished_at: null,
  params: {},
  stats: { total: 1, queued: 0, running: 1, succeeded: 0, failed: 0, cancelled: 0 },
  error: null,
});

describe('RunSnapshots', () => {
  it('serves a snapshot while fresh, then only when the store confirms its version', () => {
    let now = 1000;
    const snapshots = new RunSnapshots(500, 10, () => now);
    snapshots.set(run('run_a'), 'own_1', 3);
    expect(snapshots.fresh('run_a')?.json).toContain('"run_a"');
    now += 600;
    expect(snapshots.fresh('run_a')).toBeNull();
    expect(snapshots.at('run_a', 4)).toBeNull();
    expect(snapshots.at('run_a', 3)?.version).toBe(3);
    expect(snapshots.fresh('run_a')).not.toBeNull();
  });

  it('drops a snapshot on a change in this process, and the oldest beyond capacity', () => {
    const snapshots = new RunSnapshots(500, 2);
    snapshots.set(run('run_a'), 'own_1', 1);
    snapshots.invalidate('run_a');
    expect(snapshots.fresh('run_a')).toBeNull();
    snapshots.set(run('run_b'), 'own_1', 1);
    snapshots.set(run('run_c'), 'own_1', 1);
    snapshots.set(run('run_d', 'completed'), 'own_1', 1);
    expect(snapshots.fresh('run_b')).toBeNull();
    expect(snapshots.fresh('run_d')?.terminal).toBe(true);
  });
});
