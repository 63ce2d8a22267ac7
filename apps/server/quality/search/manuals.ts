import { existsSync } from 'node:fs';

/** A Debian HTML manual the quality harness serves and crawls. */
export interface Manual {
  /** Prefix of the judged page ids (`python/library/json.html`). */
  name: string;
  /** The Debian package that installs it. */
  debianPackage: string;
  /** Where the package puts the HTML. */
  root: string;
  /** The page the deep crawl starts from, relative to the root. */
  start: string;
  /** Path globs the deep crawl leaves out (`exclude_paths`). */
  excludePaths?: string[];
}

/** Debian's Python 3.11 manual (dev and held questions, `questions.json`). */
export const PYTHON_MANUAL: Manual = {
  name: 'python',
  debianPackage: 'python3.11-doc',
  root: '/usr/share/doc/python3.11/html',
  start: 'index.html',
  // The 2.5 MB table of contents (nested lists, no text of its own) takes the HTML-to-Markdown
  // converter minutes, during which the server answers nothing; no question is about it.
  excludePaths: ['/contents.html'],
};

/** Debian's Git manual (dev and held questions, `questions.json`). */
export const GIT_MANUAL: Manual = {
  name: 'git',
  debianPackage: 'git-doc',
  root: '/usr/share/doc/git-doc',
  start: 'index.html',
};

/** Debian's SQLite manual (held questions only, `questions-sqlite.json`); nobody tuned search on it. */
export const SQLITE_MANUAL: Manual = {
  name: 'sqlite',
  debianPackage: 'sqlite3-doc',
  root: '/usr/share/doc/sqlite3',
  start: 'index.html',
};

/**
 * Debian's Django 3.2 manual (dev questions only, `questions-django.json`): a
 * second kind of documentation (a web framework's topic guides, how-tos and
 * reference) to choose ranking on beside Python and Git.
 */
export const DJANGO_MANUAL: Manual = {
  name: 'django',
  debianPackage: 'python-django-doc',
  root: '/usr/share/doc/python-django-doc/html',
  start: 'index.html',
  // The 586 KB general index (nested lists of links, no text of its own), left out for the
  // same reason as Python's table of contents; no question is about it.
  excludePaths: ['/genindex.html'],
};

/**
 * Debian's GNU Octave 7.3 manual (dev questions only, `questions-octave.json`): a third kind
 * of documentation (a GNU Texinfo manual of a language and its function reference, one page
 * per node) to choose ranking on beside Sphinx (Python, Django) and AsciiDoc (Git). Its 2,356
 * redirect stubs (one per index anchor, for links from other manuals) are linked from no page,
 * so the crawl reaches the 507 node pages only, all of them from the table of contents.
 */
export const OCTAVE_MANUAL: Manual = {
  name: 'octave',
  debianPackage: 'octave-doc',
  root: '/usr/share/doc/octave/octave.html',
  start: 'index.html',
  // The 916 KB function index (nested lists of links, no text of its own), left out for the
  // same reason as Python's table of contents; no question is about it.
  excludePaths: ['/Function-Index.html'],
};

/**
 * Debian's Apache HTTP Server 2.4 manual, English part (dev questions only,
 * `questions-apache.json`): a fourth kind of documentation (XML-generated guides, how-tos and one
 * page per module with its directives, 244 pages) to check a ranking choice on a site none of the
 * others resemble. Debian installs each language in a directory of its own and every page links its
 * translations and itself (`../de/…`, `../en/…`): served from the English directory those links
 * leave it, so the crawl leaves them out instead of asking for 2,600 pages that are not there. A few pages of the English
 * directory are Portuguese as Debian ships them (`bind.html`, `install.html`): a real site's mix.
 */
export const APACHE_MANUAL: Manual = {
  name: 'apache',
  debianPackage: 'apache2-doc',
  root: '/usr/share/doc/apache2-doc/manual/en',
  start: 'index.html',
  excludePaths: ['da', 'de', 'en', 'es', 'fr', 'ja', 'ko', 'pt-br', 'ru', 'tr', 'zh-cn'].map(
    (lang) => `/${lang}/**`,
  ),
};

/**
 * Debian's PostgreSQL 15 manual (held questions only, `questions-postgres.json`): the kind of
 * site issue 11 is verified on (a real documentation site of 1,169 pages, DocBook's one page per
 * section and per reference entry); nobody tuned search on it. Every page is reachable from
 * `index.html` within two links (its parts' tables of contents list every section).
 */
export const POSTGRES_MANUAL: Manual = {
  name: 'postgres',
  debianPackage: 'postgresql-doc-15',
  root: '/usr/share/doc/postgresql-doc-15/html',
  start: 'index.html',
  // The 445 KB book index (3,481 links, no text of its own), left out for the same reason as
  // Python's table of contents; no question is about it.
  excludePaths: ['/bookindex.html'],
};

/** Every manual the judged questions are about (they name pages as `<name>/<path>`). */
export const MANUALS: readonly Manual[] = [
  PYTHON_MANUAL,
  GIT_MANUAL,
  SQLITE_MANUAL,
  DJANGO_MANUAL,
  OCTAVE_MANUAL,
  APACHE_MANUAL,
  POSTGRES_MANUAL,
];

/**
 * The manuals that are not installed, with the command that installs them
 * (the harness says so instead of crashing on a machine without them).
 */
export function missingManuals(manuals: readonly Manual[] = MANUALS): string | null {
  const missing = manuals.filter((m) => !existsSync(`${m.root}/${m.start}`));
  if (missing.length === 0) return null;
  const packages = missing.map((m) => m.debianPackage).join(' ');
  return `the search quality harness needs Debian's HTML manuals (${missing.map((m) => m.root).join(', ')}): apt-get install ${packages}`;
}

/**
 * The judged id of a crawled URL (`python/library/json.html`), given the
 * origin each manual was served from; null for a URL of no manual.
 */
export function judgedIdOf(url: string, origins: Record<string, string>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  for (const [name, origin] of Object.entries(origins)) {
    if (parsed.origin !== origin) continue;
    let path = decodeURIComponent(parsed.pathname).replace(/^\/+/, '');
    if (path === '' || path.endsWith('/')) path += 'index.html';
    return `${name}/${path}`;
  }
  return null;
}
