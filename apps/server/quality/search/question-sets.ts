import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  APACHE_MANUAL,
  DJANGO_MANUAL,
  GIT_MANUAL,
  type Manual,
  OCTAVE_MANUAL,
  POSTGRES_MANUAL,
  PYTHON_MANUAL,
  SQLITE_MANUAL,
} from './manuals.js';
import type { JudgedQuestion } from './metrics.js';

type Split = JudgedQuestion['split'];

/**
 * Judged questions about some manuals, which one run crawls into a
 * collection of their own and measures apart: adding a set leaves the
 * figures of the others comparable with their earlier runs.
 */
export interface QuestionSet {
  /** What the questions are about, for the printed header. */
  title: string;
  /** The manuals the questions' judged pages belong to. */
  manuals: readonly Manual[];
  /** The collection the manuals are crawled into (one per set). */
  collection: string;
  /** The judged questions (a JSON array of {@link JudgedQuestion}). */
  questionsFile: string;
  /** The splits its questions may have: a set of held questions only gives the dev tools nothing to print. */
  splits: readonly Split[];
  /**
   * Printed after the split's name (`held-sqlite`); null for the first set,
   * whose lines keep the plain `dev` and `held` of the runs before there were sets.
   */
  tag: string | null;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The Python and Git manuals' questions: dev (ranking is tuned on it) and held. */
export const PYTHON_GIT_QUESTIONS: QuestionSet = {
  title: "Debian's Python 3.11 and Git HTML manuals",
  manuals: [PYTHON_MANUAL, GIT_MANUAL],
  collection: 'manuals',
  questionsFile: here('./questions.json'),
  splits: ['dev', 'held'],
  tag: null,
};

/** The SQLite manual's questions: held only, written before any ranking ran on them. */
export const SQLITE_QUESTIONS: QuestionSet = {
  title: "Debian's SQLite HTML manual",
  manuals: [SQLITE_MANUAL],
  collection: 'manuals-sqlite',
  questionsFile: here('./questions-sqlite.json'),
  splits: ['held'],
  tag: 'sqlite',
};

/**
 * The Django manual's questions: dev only (a second dev source, so that a
 * ranking choice is made on two kinds of documentation), written before any
 * ranking ran on them.
 */
export const DJANGO_QUESTIONS: QuestionSet = {
  title: "Debian's Django 3.2 HTML manual",
  manuals: [DJANGO_MANUAL],
  collection: 'manuals-django',
  questionsFile: here('./questions-django.json'),
  splits: ['dev'],
  tag: 'django',
};

/**
 * The Octave manual's questions: dev only (a third dev source, a Texinfo manual of a
 * language and its functions, so that a ranking choice can be checked on a manual it was
 * not chosen on: leave one manual out), written before any ranking ran on them.
 */
export const OCTAVE_QUESTIONS: QuestionSet = {
  title: "Debian's GNU Octave 7.3 HTML manual",
  manuals: [OCTAVE_MANUAL],
  collection: 'manuals-octave',
  questionsFile: here('./questions-octave.json'),
  splits: ['dev'],
  tag: 'octave',
};

/**
 * The Apache HTTP Server manual's questions: dev only (a fourth dev source, guides and a
 * reference of modules and their directives, unlike the other three), written before any ranking
 * ran on them; its first measurement (2026-11-28) was of a ranking chosen without it.
 */
export const APACHE_QUESTIONS: QuestionSet = {
  title: "Debian's Apache HTTP Server 2.4 HTML manual",
  manuals: [APACHE_MANUAL],
  collection: 'manuals-apache',
  questionsFile: here('./questions-apache.json'),
  splits: ['dev'],
  tag: 'apache',
};

/**
 * The PostgreSQL manual's questions: held only (the kind of site issue 11 is verified on, a
 * real 1,169-page documentation site), written before any ranking ran on them. Last in
 * {@link QUESTION_SETS}, so the sets before it print as they did.
 */
export const POSTGRES_QUESTIONS: QuestionSet = {
  title: "Debian's PostgreSQL 15 HTML manual",
  manuals: [POSTGRES_MANUAL],
  collection: 'manuals-postgres',
  questionsFile: here('./questions-postgres.json'),
  splits: ['held'],
  tag: 'postgres',
};

/** Every set one run of the harness measures, in the order it prints them. */
export const QUESTION_SETS: readonly QuestionSet[] = [
  PYTHON_GIT_QUESTIONS,
  SQLITE_QUESTIONS,
  DJANGO_QUESTIONS,
  OCTAVE_QUESTIONS,
  APACHE_QUESTIONS,
  POSTGRES_QUESTIONS,
];

/** The sets with dev questions, which the dev tools (`dev-loop.ts`, `dev-cv.ts`) ask, each apart and all together. */
export const DEV_SETS: readonly QuestionSet[] = QUESTION_SETS.filter((set) => set.splits.includes('dev'));

/**
 * The dev sets whose pages and questions the real-page latency bench (`real-page-latency.ts`) and
 * `answers-dump.ts` use: the ones it has measured since its first run (2026-11-27), fixed so that
 * its figures stay comparable across runs when a dev set is added (the Apache one was, later).
 */
export const REAL_PAGE_LATENCY_SETS: readonly QuestionSet[] = [
  PYTHON_GIT_QUESTIONS,
  DJANGO_QUESTIONS,
  OCTAVE_QUESTIONS,
];

/** The printed name of a split of a set (`dev`, `held`, `held-sqlite`). */
export function splitLabel(set: QuestionSet, split: Split): string {
  return set.tag === null ? split : `${split}-${set.tag}`;
}

/**
 * What is wrong with a set's questions, one line each (none: they are fine):
 * a malformed entry, a repeated id, a split the set does not have, or a
 * judged page that is not a file of one of the set's manuals (a typo there
 * would count as a miss for every ranker, silently).
 */
export function questionProblems(questions: unknown, set: QuestionSet): string[] {
  if (!Array.isArray(questions)) return ['the file is not a JSON array of questions'];
  const problems: string[] = [];
  const ids = new Set<string>();
  questions.forEach((entry: Partial<Record<keyof JudgedQuestion, unknown>>, index) => {
    const where = typeof entry?.id === 'string' && entry.id !== '' ? entry.id : `question ${index + 1}`;
    if (typeof entry?.id !== 'string' || entry.id === '') problems.push(`${where}: no id`);
    else if (ids.has(entry.id)) problems.push(`${where}: the id is used twice`);
    else ids.add(entry.id);
    if (typeof entry?.question !== 'string' || entry.question.trim() === '')
      problems.push(`${where}: no question text`);
    if (!set.splits.includes(entry?.split as Split))
      problems.push(`${where}: split ${JSON.stringify(entry?.split)} is not one of ${set.splits.join(', ')}`);
    const relevant = entry?.relevant;
    if (!Array.isArray(relevant) || relevant.length === 0 || relevant.some((id) => typeof id !== 'string')) {
      problems.push(`${where}: relevant is not a non-empty list of page ids`);
      return;
    }
    for (const id of relevant as string[]) {
      const problem = judgedPageProblem(id, set.manuals);
      if (problem !== null) problems.push(`${where}: ${problem}`);
    }
  });
  return problems;
}

function judgedPageProblem(id: string, manuals: readonly Manual[]): string | null {
  const slash = id.indexOf('/');
  const manual = manuals.find((m) => m.name === id.slice(0, slash));
  if (slash <= 0 || manual === undefined)
    return `${id} names no manual of the set (${manuals.map((m) => `${m.name}/…`).join(', ')})`;
  const path = id.slice(slash + 1);
  if (path === '' || path.split('/').includes('..')) return `${id} is not a page path`;
  const file = join(manual.root, path);
  if (!existsSync(file) || !statSync(file).isFile()) return `${id} is no file of the manual (${file})`;
  return null;
}

/**
 * Reads a set's judged questions, checked with {@link questionProblems}
 * (throws listing every problem: a run on a broken file measures nothing true).
 */
export function loadQuestions(set: QuestionSet = PYTHON_GIT_QUESTIONS): JudgedQuestion[] {
  const questions: unknown = JSON.parse(readFileSync(set.questionsFile, 'utf8'));
  const problems = questionProblems(questions, set);
  if (problems.length > 0)
    throw new Error(`${set.questionsFile} has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  return questions as JudgedQuestion[];
}
