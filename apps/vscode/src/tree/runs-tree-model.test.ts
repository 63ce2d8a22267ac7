import { describe, expect, it } from 'vitest';
import { RunsStore } from '../runs/runs-store.js';
import { finished, makeResult, makeRun } from '../test-support/runs.js';
import { type RunsNode, RunsTreeModel } from './runs-tree-model.js';

const NOW = Date.parse('2024-05-01T10:03:00.000Z');

function setup() {
  const store = new RunsStore();
  const model = new RunsTreeModel(store);
  const redrawn: (RunsNode | undefined)[] = [];
  model.changes$.subscribe((node) => redrawn.push(node));
  return { store, model, redrawn };
}

const labels = (model: RunsTreeModel, nodes: RunsNode[]) => nodes.map((node) => model.view(node, NOW).label);

describe('RunsTreeModel fed by pages and snapshots', () => {
  it('lists runs newest first with type, spinner, succeeded/total, relative time and stable ids', () => {
    const { store, model } = setup();
    store.replaceFirstPage({
      data: [
        makeRun('run_b', { type: 'crawl', urls: ['https://docs.example/a', 'https://docs.example/b'] }),
        finished(makeRun('run_a', { created_at: '2024-05-01T08:00:00.000Z' })),
      ],
      next_cursor: null,
    });
    const [b, a] = model.roots();
    expect(model.view(b!, NOW)).toMatchObject({
      id: 'run_b',
      label: 'Crawl /a +1',
      description: '0 of 2 · 3 min ago · docs.example',
      icon: { id: 'loading~spin' },
      contextValue: 'run cancelable deletable',
      collapsible: 'collapsed',
    });
    expect(model.view(a!, NOW)).toMatchObject({
      id: 'run_a',
      label: 'Extract /p/lamp',
      description: '2 h ago · 2/2 · shop.example',
      icon: { id: 'pass', color: 'testing.iconPassed' },
      contextValue: 'run rerunnable deletable hasResults',
    });
    expect(model.roots()).toEqual([b, a]);
    expect(model.roots()[0]).toBe(b);
  });

  it('redraws only the run whose snapshot changed, and nothing for an unchanged snapshot', () => {
    const { store, model, redrawn } = setup();
    const run = makeRun('run_x');
    store.replaceFirstPage({ data: [run, makeRun('run_y')], next_cursor: null });
    const [x] = model.roots();
    redrawn.length = 0;
    expect(store.applySnapshot({ ...run })).toBe(false);
    expect(redrawn).toEqual([]);
    const progressed = {
      ...run,
      updated_at: '2024-05-01T10:02:00.000Z',
      stats: { ...run.stats, succeeded: 1, running: 0, queued: 1 },
    };
    expect(store.applySnapshot(progressed)).toBe(true);
    expect(redrawn).toEqual([x]);
    expect(model.view(x!, NOW).description).toBe('1 of 2 · 3 min ago · shop.example');
    const ended = {
      ...finished(run, 'incomplete'),
      stats: { ...finished(run).stats, succeeded: 1, failed: 1 },
    };
    store.applySnapshot(ended);
    expect(model.view(x!, NOW)).toMatchObject({ icon: { id: 'warning' } });
    store.setFailedPages(ended, {
      results: [{ error: { code: 'timeout', message: 'slow' } }],
      complete: true,
    });
    expect(model.view(x!, NOW).contextValue).toBe('run retryable rerunnable deletable hasResults');
  });

  it('offers Retry on an ended run only where it can help: a cancelled page, or a failure that may pass', () => {
    const { store, model, redrawn } = setup();
    const stats = { total: 2, queued: 0, running: 0, succeeded: 0, failed: 2, cancelled: 0 };
    const run = { ...finished(makeRun('run_x'), 'failed'), stats };
    store.replaceFirstPage({ data: [run], next_cursor: null });
    const [x] = model.roots();
    const retryable = () => /\bretryable\b/.test(model.view(x!, NOW).contextValue ?? '');
    // Not until its failed pages are read: offered, then taken away, it would be clicked in vain.
    expect(retryable()).toBe(false);
    const tooLarge = { error: { code: 'too_large', message: 'over the limit' }, http_status: 200 };
    const missing = { error: { code: 'http_error', message: 'HTTP 404' }, http_status: 404 };
    redrawn.length = 0;
    store.setFailedPages(run, { results: [tooLarge, missing], complete: true });
    expect(redrawn).toEqual([x]);
    expect(retryable()).toBe(false);
    store.setFailedPages(run, {
      results: [tooLarge, { error: { code: 'timeout', message: 'slow' } }],
      complete: true,
    });
    expect(retryable()).toBe(true);
    // Some not read (more than a page of them): the others may pass.
    store.setFailedPages(run, { results: [tooLarge], complete: false });
    expect(retryable()).toBe(true);
    // Unreadable: the service decides.
    store.setFailedPages(run, 'unreadable');
    expect(retryable()).toBe(true);
    // Read at an older snapshot (it was retried since): not known any more.
    store.setFailedPages(run, { results: [tooLarge, missing], complete: true });
    store.applySnapshot({ ...run, status: 'queued', stats: { ...stats, failed: 0, queued: 2 } });
    expect(store.failedPagesOf('run_x')).toBeUndefined();
    // A cancelled page runs again: nothing needs reading.
    store.applySnapshot({ ...run, status: 'cancelled', stats: { ...stats, failed: 1, cancelled: 1 } });
    expect(retryable()).toBe(true);
    // Nothing failed nor cancelled: a retry would run nothing.
    store.applySnapshot({
      ...run,
      status: 'cancelled',
      updated_at: 'later',
      stats: { ...stats, failed: 0, succeeded: 2 },
    });
    expect(retryable()).toBe(false);
  });

  it('ignores snapshots of runs it does not list', () => {
    const { store, model, redrawn } = setup();
    store.replaceFirstPage({ data: [makeRun('run_x')], next_cursor: null });
    redrawn.length = 0;
    expect(store.applySnapshot(makeRun('run_other', { status: 'completed' }))).toBe(false);
    expect(redrawn).toEqual([]);
    expect(labels(model, model.roots())).toHaveLength(1);
  });

  it('pages with a Load more node and appends the next page', () => {
    const { store, model } = setup();
    store.replaceFirstPage({ data: [makeRun('run_3'), makeRun('run_2')], next_cursor: 'c1' });
    const roots = model.roots();
    expect(roots.map((node) => node.kind)).toEqual(['run', 'run', 'more-runs']);
    expect(model.view(roots[2]!, NOW)).toMatchObject({
      label: 'Load more…',
      command: { id: 'webdata.loadMore' },
    });
    store.appendPage({ data: [makeRun('run_1')], next_cursor: null });
    expect(model.roots().map((node) => node.id)).toEqual(['run_3', 'run_2', 'run_1']);
  });

  it('puts new runs from a list refresh on top, updates known ones and drops runs deleted elsewhere', () => {
    const { store, model, redrawn } = setup();
    store.replaceFirstPage({
      data: [makeRun('run_3'), makeRun('run_2'), makeRun('run_1'), makeRun('run_0')],
      next_cursor: 'c',
    });
    redrawn.length = 0;
    // run_4 is new; run_2 was deleted elsewhere; run_0 lies beyond what the small page covers.
    expect(
      store.mergeLatest({ data: [makeRun('run_4'), makeRun('run_3'), makeRun('run_1')], next_cursor: 'd' }),
    ).toBe(true);
    expect(model.roots().map((node) => node.id)).toEqual(['run_4', 'run_3', 'run_1', 'run_0', 'more-runs']);
    expect(redrawn).toEqual([undefined]);
    // Nothing new: only changed runs are redrawn.
    redrawn.length = 0;
    expect(
      store.mergeLatest({ data: [makeRun('run_4'), finished(makeRun('run_3'))], next_cursor: 'd' }),
    ).toBe(true);
    expect(redrawn.map((node) => node?.id)).toEqual(['run_3']);
    // A page of runs all unknown, with more behind it: a gap the caller must fill by reloading.
    expect(store.mergeLatest({ data: [makeRun('run_9'), makeRun('run_8')], next_cursor: 'e' })).toBe(false);
    expect(model.roots().map((node) => node.id)).toEqual(['run_4', 'run_3', 'run_1', 'run_0', 'more-runs']);
    // The last page covers everything: a run missing from it is gone.
    store.mergeLatest({ data: [makeRun('run_4'), makeRun('run_3'), makeRun('run_1')], next_cursor: null });
    expect(model.roots().map((node) => node.id)).toEqual(['run_4', 'run_3', 'run_1']);
  });

  it('lists results under a run, with a screenshot child, paging and a failed result', () => {
    const { store, model } = setup();
    store.replaceFirstPage({ data: [finished(makeRun('run_r'))], next_cursor: null });
    const [run] = model.roots();
    expect(model.children(run!)).toEqual([]);
    store.setResults(
      'run_r',
      {
        data: [
          makeResult('run_r', 'res_1', { title: 'Brass Desk Lamp', has_screenshot: true }),
          makeResult('run_r', 'res_2', {
            status: 'failed',
            title: null,
            url: 'https://shop.example/gone',
            error: { code: 'http_error', message: 'HTTP 404' },
          }),
        ],
        next_cursor: 'r2',
      },
      false,
    );
    const [ok, failed, more] = model.children(run!);
    expect(model.view(ok!, NOW)).toMatchObject({
      id: 'run_r/res_1',
      label: 'Brass Desk Lamp',
      description: 'shop.example/res_1',
      icon: { id: 'json' },
      contextValue: 'result openable hasScreenshot',
      collapsible: 'collapsed',
      command: { id: 'webdata.result.open' },
    });
    expect(model.children(ok!).map((node) => model.view(node, NOW))).toEqual([
      expect.objectContaining({
        id: 'run_r/res_1/screenshot',
        label: 'Screenshot',
        command: expect.anything(),
      }),
    ]);
    expect(model.view(failed!, NOW)).toMatchObject({
      label: 'shop.example/gone',
      description: 'http_error · shop.example/gone',
      icon: { id: 'error' },
      contextValue: 'result failed',
      // Nothing to open: a click says why it failed.
      command: { id: 'webdata.result.showFailure' },
    });
    expect(more).toMatchObject({ kind: 'more-results', runId: 'run_r' });
    store.setResults('run_r', { data: [makeResult('run_r', 'res_3')], next_cursor: null }, true);
    expect(model.children(run!).map((node) => node.id)).toEqual([
      'run_r/res_1',
      'run_r/res_2',
      'run_r/res_3',
    ]);
  });

  it("labels a run's results by their own part of the title, the site's name they share in the tooltip", () => {
    const { store, model } = setup();
    store.replaceFirstPage({ data: [finished(makeRun('run_r'))], next_cursor: null });
    const [run] = model.roots();
    const page = (id: string, title: string) =>
      makeResult('run_r', id, { title, url: `https://shop.example/${id}` });
    store.setResults(
      'run_r',
      {
        data: [page('lamp', 'Acme Shop | Brass Desk Lamp'), page('kettle', 'Acme Shop | Enamel Kettle')],
        next_cursor: null,
      },
      false,
    );
    const [lamp, kettle] = model.children(run!);
    expect(model.view(lamp!, NOW)).toMatchObject({
      label: 'Brass Desk Lamp',
      description: 'shop.example/lamp',
      tooltip: 'Acme Shop | Brass Desk Lamp\nhttps://shop.example/lamp',
    });
    expect(model.view(kettle!, NOW).label).toBe('Enamel Kettle');
  });

  it("lists an extraction's results in the order of the URLs given, not the order they finished", () => {
    const { store, model } = setup();
    const urls = ['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c'];
    store.replaceFirstPage({ data: [makeRun('run_x', { urls, stats: { total: 3 } })], next_cursor: null });
    const [run] = model.roots();
    // The service lists them as they finished: c, a, b.
    store.setResults(
      'run_x',
      {
        data: [
          makeResult('run_x', 'res_c', { url: urls[2] }),
          makeResult('run_x', 'res_a', { url: urls[0] }),
          makeResult('run_x', 'res_b', { url: urls[1] }),
        ],
        next_cursor: null,
      },
      false,
    );
    expect(model.children(run!).map((node) => node.id)).toEqual([
      'run_x/res_a',
      'run_x/res_b',
      'run_x/res_c',
    ]);
  });

  it('says below the results of a run in flight the pages it is still at work on', () => {
    const { store, model } = setup();
    const crawling = makeRun('run_d', {
      type: 'deep-crawl',
      urls: [],
      params: { url: 'https://docs.example/' },
      stats: { total: 40, queued: 25, running: 3, succeeded: 11, failed: 1, cancelled: 0 },
    });
    store.replaceFirstPage({ data: [crawling], next_cursor: null });
    const [run] = model.roots();
    store.setResults('run_d', { data: [makeResult('run_d', 'res_1', { title: 'Docs' })] }, false);
    const children = model.children(run!);
    expect(labels(model, children)).toEqual(['Docs', '3 pages in progress, 25 queued']);
    expect(model.view(children[1]!, NOW).icon).toEqual({ id: 'loading~spin' });
    // Once ended, the results alone.
    store.applySnapshot(finished(crawling));
    store.setResults('run_d', { data: [makeResult('run_d', 'res_1', { title: 'Docs' })] }, false);
    expect(labels(model, model.children(run!))).toEqual(['Docs']);
  });

  it('says why a run shows no results: none yet, none, or the error', () => {
    const { store, model } = setup();
    store.replaceFirstPage({
      data: [makeRun('run_q', { status: 'queued' }), finished(makeRun('run_c'))],
      next_cursor: null,
    });
    const [queued, done] = model.roots();
    store.setResults('run_q', { data: [], next_cursor: null }, false);
    store.setResults('run_c', { data: [], next_cursor: null }, false);
    expect(labels(model, model.children(queued!))).toEqual(['No results yet: 1 page in progress, 1 queued']);
    expect(labels(model, model.children(done!))).toEqual(['No results']);
    store.setResultsState('run_c', { state: 'error', error: new Error('connection refused') });
    expect(labels(model, model.children(done!))).toEqual(['Could not load the results: connection refused']);
  });

  it('forgets the results of a run whose snapshot changed, so an expanded run reloads them', () => {
    const { store } = setup();
    const run = makeRun('run_r');
    store.replaceFirstPage({ data: [run], next_cursor: null });
    store.setResults('run_r', { data: [makeResult('run_r', 'res_1')], next_cursor: null }, false);
    store.applySnapshot(finished(run));
    expect(store.resultsOf('run_r').load.state).toBe('unloaded');
  });

  it('reads the results of an expanded run in flight again at most every 2 s, and at once when it ends', () => {
    let now = 0;
    const store = new RunsStore(() => now);
    const run = makeRun('run_r');
    store.replaceFirstPage({ data: [run], next_cursor: null });
    store.setResults('run_r', { data: [makeResult('run_r', 'res_1')], next_cursor: null }, false);
    const counts = (succeeded: number) => ({
      ...run,
      updated_at: `2024-05-01T10:00:0${succeeded}.000Z`,
      stats: { total: 9, queued: 9 - succeeded, running: 0, succeeded, failed: 0, cancelled: 0 },
    });
    now = 1_000;
    expect(store.applySnapshot(counts(2))).toBe(true);
    expect(store.resultsOf('run_r').load.state).toBe('loaded');
    now = 2_000;
    store.applySnapshot(counts(3));
    expect(store.resultsOf('run_r').load.state).toBe('unloaded');
    store.setResults('run_r', { data: [makeResult('run_r', 'res_1')], next_cursor: null }, false);
    now = 2_100;
    store.applySnapshot(finished(counts(4)));
    expect(store.resultsOf('run_r').load.state).toBe('unloaded');
  });

  it('adds runs this extension created on top, unless the filter excludes them', () => {
    const { store, model } = setup();
    store.setFilter({ type: 'crawl' });
    store.replaceFirstPage({ data: [makeRun('run_1', { type: 'crawl' })], next_cursor: null });
    store.upsert(makeRun('run_2', { type: 'extract' }));
    store.upsert(makeRun('run_3', { type: 'crawl' }));
    expect(model.roots().map((node) => node.id)).toEqual(['run_3', 'run_1']);
    expect(store.inFlightIds()).toEqual(['run_3', 'run_1']);
    store.remove('run_3');
    expect(model.roots().map((node) => node.id)).toEqual(['run_1']);
  });

  it('counts a status it does not know as in flight', () => {
    const { store, model } = setup();
    store.replaceFirstPage({ data: [makeRun('run_w', { status: 'warming-up' })], next_cursor: null });
    expect(store.inFlightIds()).toEqual(['run_w']);
    expect(model.view(model.roots()[0]!, NOW).icon).toEqual({ id: 'loading~spin' });
  });

  it("draws an action's row with its icon and command, the same node each time", () => {
    const { model } = setup();
    const action = { label: 'Try Again', icon: 'refresh', command: 'webdata.runs.refresh' };
    const [row] = model.actionNodes([action]);
    expect(model.view(row!, NOW)).toEqual({
      id: 'action/webdata.runs.refresh',
      label: 'Try Again',
      icon: { id: 'refresh' },
      contextValue: 'action',
      collapsible: 'none',
      command: { id: 'webdata.runs.refresh', title: 'Try Again' },
    });
    expect(model.actionNodes([action])[0]).toBe(row);
  });

  it('says what Enter opens on each row: a run its details, a result it, a failed one why, Load more…, an action', () => {
    const { store, model } = setup();
    store.replaceFirstPage({ data: [finished(makeRun('run_r'))], next_cursor: 'c1' });
    const [run, moreRuns] = model.roots();
    store.setResults(
      'run_r',
      {
        data: [
          makeResult('run_r', 'res_1', { has_screenshot: true }),
          makeResult('run_r', 'res_2', {
            status: 'failed',
            error: { code: 'http_error', message: 'HTTP 404' },
          }),
        ],
        next_cursor: null,
      },
      false,
    );
    const [ok, failed] = model.children(run!);
    const [screenshot] = model.children(ok!);
    const [action] = model.actionNodes([
      { label: 'Try Again', icon: 'refresh', command: 'webdata.runs.refresh' },
    ]);
    expect(model.openCommand(run!)).toEqual({ id: 'webdata.run.showDetails', args: [run] });
    expect(model.openCommand(ok!)).toEqual({ id: 'webdata.result.open', args: [ok] });
    expect(model.openCommand(failed!)).toEqual({ id: 'webdata.result.showFailure', args: [failed] });
    expect(model.openCommand(screenshot!)).toEqual({
      id: 'webdata.result.openScreenshot',
      args: [screenshot],
    });
    expect(model.openCommand(moreRuns!)).toEqual({ id: 'webdata.loadMore', args: [moreRuns] });
    expect(model.openCommand(action!)).toEqual({ id: 'webdata.runs.refresh', args: [] });
    store.setResults('run_r', { data: [], next_cursor: null }, false);
    const [message] = model.children(run!);
    expect(message?.kind).toBe('message');
    expect(model.openCommand(message!)).toBeUndefined();
  });
});
