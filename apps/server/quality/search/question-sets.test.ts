import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  APACHE_QUESTIONS,
  DEV_SETS,
  DJANGO_QUESTIONS,
  loadQuestions,
  OCTAVE_QUESTIONS,
  POSTGRES_QUESTIONS,
  PYTHON_GIT_QUESTIONS,
  QUESTION_SETS,
  type QuestionSet,
  questionProblems,
  REAL_PAGE_LATENCY_SETS,
  SQLITE_QUESTIONS,
  splitLabel,
} from './question-sets.js';

describe('the judged question files', () => {
  it.each(QUESTION_SETS.map((set) => [set.collection, set] as const))(
    '%s: every question is well formed and every judged page is a file of its manuals',
    (_, set) => {
      const questions = loadQuestions(set);
      expect(questions.length).toBeGreaterThanOrEqual(40);
      expect(new Set(questions.map((q) => q.split))).toEqual(new Set(set.splits));
    },
  );

  it('the SQLite set is held only, so the dev tools (dev questions only) get nothing of it', () => {
    expect(SQLITE_QUESTIONS.splits).toEqual(['held']);
    expect(loadQuestions(SQLITE_QUESTIONS).filter((q) => q.split === 'dev')).toEqual([]);
    expect(loadQuestions().length).toBe(loadQuestions(PYTHON_GIT_QUESTIONS).length);
  });

  it('the PostgreSQL set is held only and measured last, so the dev tools get nothing of it and earlier sets print as before', () => {
    expect(POSTGRES_QUESTIONS.splits).toEqual(['held']);
    expect(loadQuestions(POSTGRES_QUESTIONS).every((q) => q.split === 'held')).toBe(true);
    expect(DEV_SETS).not.toContain(POSTGRES_QUESTIONS);
    expect(QUESTION_SETS.at(-1)).toBe(POSTGRES_QUESTIONS);
    expect(splitLabel(POSTGRES_QUESTIONS, 'held')).toBe('held-postgres');
  });

  it('no PostgreSQL question is judged on a page the crawl leaves out', () => {
    const excluded = (POSTGRES_QUESTIONS.manuals[0]?.excludePaths ?? []).map((path) => `postgres${path}`);
    expect(excluded).toEqual(['postgres/bookindex.html']);
    const judged = loadQuestions(POSTGRES_QUESTIONS).flatMap((q) => q.relevant);
    expect(judged.filter((id) => excluded.includes(id))).toEqual([]);
  });

  it('every judged PostgreSQL page is linked from index.html within two links, as a deep crawl finds it', () => {
    // The manual's parts list every chapter and section, so two links reach each of its pages;
    // a page reached only through the left-out book index, or none, would be a miss for every ranker.
    const reached = pagesWithinTwoLinks(POSTGRES_QUESTIONS);
    const judged = new Set(loadQuestions(POSTGRES_QUESTIONS).flatMap((q) => q.relevant));
    expect([...judged].filter((id) => !reached.has(id.slice('postgres/'.length)))).toEqual([]);
  });

  it('the Django, Octave and Apache sets are dev only, and the dev tools ask them and Python+Git, not the SQLite one', () => {
    for (const set of [DJANGO_QUESTIONS, OCTAVE_QUESTIONS, APACHE_QUESTIONS]) {
      expect(set.splits).toEqual(['dev']);
      expect(loadQuestions(set).every((q) => q.split === 'dev')).toBe(true);
    }
    expect(DEV_SETS).toEqual([PYTHON_GIT_QUESTIONS, DJANGO_QUESTIONS, OCTAVE_QUESTIONS, APACHE_QUESTIONS]);
    expect(splitLabel(DJANGO_QUESTIONS, 'dev')).toBe('dev-django');
    expect(splitLabel(OCTAVE_QUESTIONS, 'dev')).toBe('dev-octave');
    expect(splitLabel(APACHE_QUESTIONS, 'dev')).toBe('dev-apache');
  });

  it('the real-page latency bench keeps the pages and questions of its first runs, whatever dev sets are added', () => {
    expect(REAL_PAGE_LATENCY_SETS).toEqual([PYTHON_GIT_QUESTIONS, DJANGO_QUESTIONS, OCTAVE_QUESTIONS]);
    expect(DEV_SETS).toEqual(expect.arrayContaining([...REAL_PAGE_LATENCY_SETS]));
  });

  it('every judged Apache page is an English page the crawl reaches from index.html within two links', () => {
    // Debian ships each language in a directory of its own and every page links its translations
    // (`../de/…`): the crawl leaves those out, so a judged page must be reached through English pages.
    const reached = pagesWithinTwoLinks(APACHE_QUESTIONS);
    const judged = new Set(loadQuestions(APACHE_QUESTIONS).flatMap((q) => q.relevant));
    expect([...judged].filter((id) => !reached.has(id.slice('apache/'.length)))).toEqual([]);
    expect(reached.size).toBeGreaterThan(200);
  });

  it('no Octave question is judged on a redirect stub (a page the crawl never reaches)', () => {
    // Texinfo writes a small page per index anchor that only redirects (meta refresh) to the node
    // holding it; no page links to one, so a question judged on one could be answered by nobody.
    const root = OCTAVE_QUESTIONS.manuals[0]?.root ?? '';
    const judged = new Set(loadQuestions(OCTAVE_QUESTIONS).flatMap((q) => q.relevant));
    const stubs = [...judged].filter((id) =>
      /http-equiv="Refresh"/i.test(readFileSync(join(root, id.slice('octave/'.length)), 'utf8')),
    );
    expect(stubs).toEqual([]);
  });

  it('every set crawls into a collection of its own', () => {
    expect(new Set(QUESTION_SETS.map((set) => set.collection)).size).toBe(QUESTION_SETS.length);
  });
});

describe('questionProblems', () => {
  const root = mkdtempSync(join(tmpdir(), 'question-sets-test-'));
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'a.html'), '<h1>a</h1>');
  writeFileSync(join(root, 'sub', 'b.html'), '<h1>b</h1>');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const set: QuestionSet = {
    title: 'a test manual',
    manuals: [{ name: 'm', debianPackage: 'none', root, start: 'a.html' }],
    collection: 'test',
    questionsFile: join(root, 'questions.json'),
    splits: ['held'],
    tag: 'm',
  };
  const question = (overrides: Record<string, unknown>) => ({
    id: 'q1',
    question: 'where is a',
    relevant: ['m/a.html'],
    split: 'held',
    ...overrides,
  });

  it('finds nothing wrong with judged pages that are files of the manual', () => {
    expect(questionProblems([question({}), question({ id: 'q2', relevant: ['m/sub/b.html'] })], set)).toEqual(
      [],
    );
  });

  it('names a judged page that is not a file of the manual, or of no manual of the set', () => {
    const problems = questionProblems(
      [
        question({ relevant: ['m/a.html', 'm/missing.html'] }),
        question({ id: 'q2', relevant: ['python/a.html'] }),
        question({ id: 'q3', relevant: ['m/sub'] }),
        question({ id: 'q4', relevant: ['m/../a.html'] }),
        question({ id: 'q5', relevant: ['a.html'] }),
      ],
      set,
    );
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^q1: m\/missing\.html is no file of the manual/);
    expect(problems[1]).toMatch(/^q2: python\/a\.html names no manual of the set/);
    expect(problems[2]).toMatch(/^q3: m\/sub is no file/);
    expect(problems[3]).toMatch(/^q4: .* is not a page path/);
    expect(problems[4]).toMatch(/^q5: a\.html names no manual/);
  });

  it('names repeated ids, splits the set does not have, and malformed entries', () => {
    const problems = questionProblems(
      [
        question({}),
        question({ split: 'held' }),
        question({ id: 'q3', split: 'dev' }),
        question({ id: 'q4', question: ' ', relevant: [] }),
        { question: 'no id', relevant: ['m/a.html'], split: 'held' },
      ],
      set,
    );
    expect(problems).toEqual([
      'q1: the id is used twice',
      'q3: split "dev" is not one of held',
      'q4: no question text',
      'q4: relevant is not a non-empty list of page ids',
      'question 5: no id',
    ]);
    expect(questionProblems({ questions: [] }, set)).toEqual(['the file is not a JSON array of questions']);
  });

  it('loadQuestions refuses a file with problems, listing them', () => {
    writeFileSync(set.questionsFile, JSON.stringify([question({ relevant: ['m/typo.html'] })]));
    expect(() => loadQuestions(set)).toThrow(/1 problem\(s\):\n {2}q1: m\/typo\.html is no file/);
    writeFileSync(set.questionsFile, JSON.stringify([question({})]));
    expect(loadQuestions(set)).toEqual([question({})]);
  });

  it('labels the first set plainly and the others with their tag', () => {
    expect(splitLabel(PYTHON_GIT_QUESTIONS, 'held')).toBe('held');
    expect(splitLabel(SQLITE_QUESTIONS, 'held')).toBe('held-sqlite');
  });
});

/**
 * The pages of a set's (one) manual that a deep crawl from its start page reaches within two
 * links, as paths from its root: relative links resolved, links out of the root, to no file or
 * to a page the crawl leaves out (`excludePaths` naming one page) dropped.
 */
function pagesWithinTwoLinks(set: QuestionSet): Set<string> {
  const manual = set.manuals[0];
  if (manual === undefined) throw new Error(`${set.title} names no manual`);
  const excluded = new Set((manual.excludePaths ?? []).map((path) => path.replace(/^\//, '')));
  const linked = (page: string) =>
    [...readFileSync(join(manual.root, page), 'utf8').matchAll(/href="([^"#?:]+\.html)/g)]
      .map((match) => posix.normalize(posix.join(posix.dirname(page), match[1] ?? '')))
      .filter(
        (target) =>
          !target.startsWith('..') && !excluded.has(target) && existsSync(join(manual.root, target)),
      );
  let frontier = [manual.start];
  const reached = new Set(frontier);
  for (let depth = 0; depth < 2; depth++) {
    frontier = [...new Set(frontier.flatMap(linked))].filter((page) => !reached.has(page));
    for (const page of frontier) reached.add(page);
  }
  return reached;
}
