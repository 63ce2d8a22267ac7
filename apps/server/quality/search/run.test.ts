import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEMANTIC_FUSION, OpenAiEmbedder } from '../../src/search/embeddings.js';
import type { CrawledDocument } from './crawled-manuals.js';
import { ALL_DEV, compareOnDev, embedQuestions } from './dev-cv.js';
import { devLoopLines } from './dev-loop.js';
import { devQuestionsOf } from './dev-questions.js';
import { embedKeptCrawl } from './embed-kept-crawl.js';
import { withKeptCrawl } from './kept-crawl.js';
import { LocalEmbeddingsServer } from './local-embeddings-server.js';
import { PYTHON_GIT_QUESTIONS, type QuestionSet } from './question-sets.js';
import { printManualsQuality, runManualsQuality, runManualsQualityApart } from './run.js';
import type { SentenceEncoder } from './sentence-encoder.js';

/** A small manual of linked pages in a temporary directory (served from 127.0.0.1 by the harness). */
function writeManual(root: string, pages: Record<string, { title: string; text: string }>, orphan: string[]) {
  mkdirSync(root, { recursive: true });
  const linked = Object.keys(pages).filter((file) => !orphan.includes(file));
  const html = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  writeFileSync(
    join(root, 'index.html'),
    html(
      'Contents',
      `<ul>${linked.map((file) => `<li><a href="${file}">${pages[file]?.title}</a></li>`).join('')}</ul>`,
    ),
  );
  for (const [file, { title, text }] of Object.entries(pages)) {
    writeFileSync(join(root, file), html(title, `<p>${text}</p><p><a href="index.html">Contents</a></p>`));
  }
}

describe('runManualsQuality over several question sets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'search-quality-run-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeManual(
    join(dir, 'drinks'),
    {
      'tea.html': {
        title: 'Green tea',
        text: 'Brew green tea leaves in water below boiling for two minutes.',
      },
      'coffee.html': {
        title: 'Coffee',
        text: 'Grind the roasted beans and pour hot water over them slowly.',
      },
      'orphan.html': { title: 'Cocoa', text: 'Nothing links to this page, so no crawl reaches it.' },
    },
    ['orphan.html'],
  );
  writeManual(
    join(dir, 'bikes'),
    {
      'chain.html': { title: 'Chain care', text: 'Oil the bicycle chain after riding in the rain.' },
      'tyres.html': { title: 'Tyres', text: 'Pump the tyres to the pressure printed on their side.' },
      'brakes.html': { title: 'Brakes', text: 'Replace worn brake pads before the metal shows.' },
      'saddle.html': { title: 'Saddle', text: 'Raise the saddle until the leg is almost straight.' },
    },
    [],
  );
  const drinks: QuestionSet = {
    title: 'a drinks manual',
    manuals: [{ name: 'drinks', debianPackage: 'none', root: join(dir, 'drinks'), start: 'index.html' }],
    // The collection of a kept crawl's pages written before there were sets (they carry none).
    collection: PYTHON_GIT_QUESTIONS.collection,
    questionsFile: join(dir, 'drinks.json'),
    splits: ['dev', 'held'],
    tag: null,
  };
  const bikes: QuestionSet = {
    title: 'a bicycle manual',
    manuals: [{ name: 'bikes', debianPackage: 'none', root: join(dir, 'bikes'), start: 'index.html' }],
    collection: 'bikes',
    questionsFile: join(dir, 'bikes.json'),
    splits: ['held'],
    tag: 'bikes',
  };
  writeFileSync(
    drinks.questionsFile,
    JSON.stringify([
      { id: 'd1', question: 'how long to brew green tea', relevant: ['drinks/tea.html'], split: 'dev' },
      { id: 'd2', question: 'hot cocoa', relevant: ['drinks/orphan.html'], split: 'held' },
    ]),
  );
  writeFileSync(
    bikes.questionsFile,
    JSON.stringify([
      { id: 'b1', question: 'oil my bicycle chain', relevant: ['bikes/chain.html'], split: 'held' },
      {
        id: 'b2',
        question: 'worn brake pads',
        relevant: ['bikes/brakes.html', 'bikes/tyres.html'],
        split: 'held',
      },
    ]),
  );
  const dataDir = join(dir, 'kept');
  const documentsFile = join(dataDir, 'harness-documents.json');
  const readDocuments = () => JSON.parse(readFileSync(documentsFile, 'utf8')) as Partial<CrawledDocument>[];

  it('adds a set to a kept crawl of the format before sets, in its own collection, measured apart', async () => {
    // A kept crawl as run.ts wrote it before there were several sets: one collection, pages without one.
    const before = await runManualsQuality({ dataDir }, [drinks]);
    expect(before.sets[0]?.crawlSeconds).toBeGreaterThan(0);
    writeFileSync(documentsFile, JSON.stringify(readDocuments().map(({ collection: _, ...doc }) => doc)));

    const report = await runManualsQuality({ dataDir }, [drinks, bikes]);
    const [drinksReport, bikesReport] = report.sets;
    // The kept set is reused, not crawled again, and measures the same; the new one is crawled now.
    expect(drinksReport?.crawlSeconds).toBe(0);
    expect(bikesReport?.crawlSeconds).toBeGreaterThan(0);
    expect(drinksReport?.rankers).toEqual(
      before.sets[0]?.rankers.map((r) => ({ ...r, p50Ms: expect.any(Number), p95Ms: expect.any(Number) })),
    );
    // Each set's rankers see its own pages only: 3 reachable drinks pages, 5 bicycle ones.
    expect(drinksReport?.documents).toBe(3);
    expect(bikesReport?.documents).toBe(5);
    // One server: each set's bm25 statistics also count the other's pages.
    expect(drinksReport?.pagesOfOtherSets).toBe(5);
    expect(bikesReport?.pagesOfOtherSets).toBe(3);
    expect(drinksReport?.notCrawled).toEqual(['drinks/orphan.html']);
    expect(bikesReport?.notCrawled).toEqual([]);
    for (const ranker of drinksReport?.rankers ?? []) {
      expect(Object.keys(ranker.figures).sort()).toEqual(['dev', 'held']);
      expect(ranker.figures.held).toMatchObject({ questions: 1, hitAt3: 0, mrrAt10: 0 });
      expect(ranker.figures.dev).toMatchObject({ questions: 1, hitAt1: 1 });
    }
    for (const ranker of bikesReport?.rankers ?? []) {
      expect(Object.keys(ranker.figures)).toEqual(['held']);
      expect(ranker.figures.held).toMatchObject({ questions: 2, hitAt1: 1, mrrAt10: 1 });
    }
    expect(bikesReport?.devMisses).toEqual([]);
    // The kept file now names every page's collection.
    const kept = readDocuments();
    expect(kept.filter((doc) => doc.collection === 'bikes')).toHaveLength(5);
    expect(kept.filter((doc) => doc.collection === drinks.collection)).toHaveLength(3);

    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      printManualsQuality(report);
      const lines = printed.mock.calls.map((call) => String(call[0]));
      // A figures line: the split, then hit@1.
      const figureLines = (split: string) =>
        lines.filter((line) => new RegExp(` ${split} +\\d\\.\\d\\d `).test(line));
      expect(figureLines('held-bikes')).toHaveLength(3);
      expect(figureLines('dev-bikes')).toHaveLength(0);
      expect(figureLines('dev')).toHaveLength(3);
      expect(figureLines('held')).toHaveLength(3);
      expect(lines).toContainEqual(expect.stringMatching(/MRR@10 above plain FTS5: held-bikes [+-]\d/));
      expect(
        lines.some((line) => line.includes('judged pages the crawl did not reach: drinks/orphan.html')),
      ).toBe(true);
    } finally {
      printed.mockRestore();
    }
  }, 240_000);

  it('apart, each set is crawled into a server of its own, which holds its pages alone', async () => {
    const report = await runManualsQualityApart({}, [drinks, bikes]);
    expect(report.sets.map((s) => [s.set.collection, s.documents, s.pagesOfOtherSets])).toEqual([
      [drinks.collection, 3, 0],
      ['bikes', 5, 0],
    ]);
    expect(report.sets.every((s) => s.crawlSeconds > 0)).toBe(true);
    expect(report.sets[1]?.rankers[0]?.figures.held).toMatchObject({ questions: 2, hitAt1: 1 });
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      printManualsQuality(report);
      const lines = printed.mock.calls.map((call) => String(call[0]));
      expect(lines.filter((line) => line.includes('a server of its own'))).toHaveLength(2);
    } finally {
      printed.mockRestore();
    }
  }, 240_000);

  it('apart, a broken question file is refused before anything is crawled', async () => {
    const broken: QuestionSet = { ...bikes, questionsFile: join(dir, 'broken.json') };
    writeFileSync(
      broken.questionsFile,
      JSON.stringify([{ id: 'x', question: 'q', relevant: [], split: 'held' }]),
    );
    const log = vi.fn();
    await expect(runManualsQualityApart({ log }, [drinks, broken])).rejects.toThrow(
      /broken\.json has 1 problem/,
    );
    // The first set's crawl would have logged its run.
    expect(log).not.toHaveBeenCalled();
  });

  it('the dev tools open the dev questions’ collection of a kept crawl, not its largest', () => {
    const opened = withKeptCrawl(dataDir, ({ db, collection }) => ({
      collection,
      pages: (
        db.prepare('SELECT count(*) AS n FROM search_documents WHERE collection = ?').get(collection) as {
          n: number;
        }
      ).n,
    }));
    expect(opened).toEqual({ collection: PYTHON_GIT_QUESTIONS.collection, pages: 3 });
  });

  // A second dev set on the kept crawl's bicycle collection, and one whose collection it lacks.
  const bikesDev: QuestionSet = {
    ...bikes,
    questionsFile: join(dir, 'bikes-dev.json'),
    splits: ['dev'],
    tag: 'bikes',
  };
  const ghost: QuestionSet = { ...bikesDev, title: 'a manual never crawled', collection: 'nowhere' };
  writeFileSync(
    bikesDev.questionsFile,
    JSON.stringify([
      { id: 'bd1', question: 'oil my bicycle chain', relevant: ['bikes/chain.html'], split: 'dev' },
      { id: 'bd2', question: 'worn brake pads', relevant: ['bikes/brakes.html'], split: 'dev' },
      // Judged on a page that shares no word with it: a miss.
      { id: 'bd3', question: 'pump the tyres', relevant: ['bikes/saddle.html'], split: 'dev' },
    ]),
  );

  it('dev-cv measures each dev set apart and all together, halves alternating within each set', () => {
    const comparison = compareOnDev(dataDir, [{ name: 'default', options: {} }], [drinks, bikesDev, ghost]);
    expect(comparison.missing).toEqual([ghost]);
    expect(comparison.scopes.map((s) => [s.scope, s.questions])).toEqual([
      ['dev', 1],
      ['dev-bikes', 3],
      [ALL_DEV, 4],
    ]);
    // Each scope: the variant, then plain FTS5 and MiniSearch on the same set's kept pages.
    for (const scope of comparison.scopes)
      expect(scope.figures.map((f) => f.name)).toEqual([
        'default',
        'plain FTS5 (porter, OR, bm25)',
        'MiniSearch defaults',
      ]);
    expect(comparison.scopes[0]?.figures[1]).toEqual({
      name: 'plain FTS5 (porter, OR, bm25)',
      dev: 1,
      a: 1,
      b: 0,
      hitAt3: 1,
      p50Ms: expect.any(Number),
    });
    const [drinksFigures, bikesFigures, allFigures] = comparison.scopes.map((s) => s.figures[0]);
    // drinks: one question, found first, in half A; half B is empty.
    expect(drinksFigures).toEqual({
      name: 'default',
      dev: 1,
      a: 1,
      b: 0,
      hitAt3: 1,
      p50Ms: expect.any(Number),
    });
    // bicycles: found first, found first, missed; A holds the 1st and 3rd.
    expect(bikesFigures?.dev).toBeCloseTo(2 / 3);
    expect(bikesFigures?.a).toBeCloseTo(1 / 2);
    expect(bikesFigures?.b).toBe(1);
    // All together: A is each set's A half (drinks' 1st, bicycles' 1st and 3rd), not every other question of the whole.
    expect(allFigures?.dev).toBeCloseTo(3 / 4);
    expect(allFigures?.a).toBeCloseTo(2 / 3);
    expect(allFigures?.b).toBe(1);
  });

  it('embed-kept-crawl gives a kept crawl its chunks through an embeddings endpoint; dev-cv searches with them', async () => {
    const copy = join(dir, 'kept-embedded');
    cpSync(dataDir, copy, { recursive: true });
    const encoder: SentenceEncoder = {
      model: 'fake-model',
      // One direction per subject; the tyres question's is the saddle page's: only meaning finds that page.
      embed: async (texts) =>
        texts.map((t) => {
          if (t.startsWith('Contents')) return [0, 0, 0, 1];
          if (/chain/i.test(t)) return [1, 0, 0, 0];
          if (/brake/i.test(t)) return [0, 1, 0, 0];
          if (/saddle/i.test(t) || t === 'pump the tyres') return [0, 0, 1, 0];
          return [0, 0, 0, 1];
        }),
      tokens: () => 1,
    };
    const embeddings = new LocalEmbeddingsServer(encoder);
    await embeddings.start();
    try {
      const file = join(copy, 'server', 'webdata.sqlite');
      const first = await embedKeptCrawl(file, [embeddings.url], {
        collections: ['bikes'],
        model: 'fake-model',
      });
      expect(first).toMatchObject({ pages: 5, left: 0 });
      expect(first.chunks).toBeGreaterThanOrEqual(5);
      // Pages with chunks are left as they are: a second run (after a stop) goes on where it was.
      expect(await embedKeptCrawl(file, [embeddings.url], { model: 'fake-model' })).toMatchObject({
        pages: 3,
        left: 0,
      });
      const embedder = new OpenAiEmbedder({ baseUrl: embeddings.url, model: 'fake-model', timeoutMs: 5000 });
      const { vectors } = await embedQuestions(devQuestionsOf([bikesDev]), embedder);
      expect(vectors.size).toBe(3);
      const comparison = compareOnDev(
        copy,
        [
          { name: 'lexical', options: {} },
          {
            name: 'semantic order',
            options: { semanticFusion: { ...DEFAULT_SEMANTIC_FUSION, weight: 1000 } },
            semantic: true,
          },
        ],
        [bikesDev],
        vectors,
      );
      const [lexical, semantic] = comparison.scopes[0]?.figures ?? [];
      // bd3 ("pump the tyres", judged on the saddle page) is missed by its words, found by its vector.
      expect(lexical?.dev).toBeCloseTo(2 / 3);
      expect(semantic?.dev).toBe(1);
    } finally {
      await embeddings.stop();
    }
  });

  it('dev-loop prints each dev set, its misses, all together, and how to crawl a missing set', () => {
    const lines = devLoopLines(dataDir, [drinks, bikesDev, ghost]);
    expect(lines[0]).toMatch(
      /^a manual never crawled: the kept crawl in .* has no collection nowhere; crawl it into a copy/,
    );
    expect(lines).toContain('dev (1): hit@1 1.00  hit@3 1.00  MRR@10 1.000');
    expect(lines).toContain('dev-bikes (3): hit@1 0.67  hit@3 0.67  MRR@10 0.667');
    expect(lines.filter((line) => line.startsWith('  '))).toEqual([
      expect.stringMatching(/^ {2}bd3 pump the tyres → .*bikes\/tyres\.html.* \[at 0\]$/),
    ]);
    expect(lines).toContain('all dev (4): hit@1 0.75  hit@3 0.75  MRR@10 0.750');
    // The baselines on the same pages, after ours: per set, then all together.
    expect(lines).toContain('dev plain FTS5 (porter, OR, bm25) (1): hit@1 1.00  hit@3 1.00  MRR@10 1.000');
    expect(lines).toContain('dev MiniSearch defaults (1): hit@1 1.00  hit@3 1.00  MRR@10 1.000');
    expect(
      lines.filter((line) => /^dev-bikes (plain FTS5|MiniSearch).* \(3\): hit@1/.test(line)),
    ).toHaveLength(2);
    expect(lines.slice(-3).map((line) => line.replace(/ \(4\):.*/, ''))).toEqual([
      'all dev',
      'all dev plain FTS5 (porter, OR, bm25)',
      'all dev MiniSearch defaults',
    ]);
  });
});
