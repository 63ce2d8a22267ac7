// Runs first in `pnpm test` (and in .ci/run through it): the Debian packages the test suites need
// from the machine beyond Node and the npm packages. Missing ones are installed with apt-get when
// this runs as root on Debian (a fresh machine of the kind the README's quick start names), else
// the command that installs them is printed and the run stops before any test, instead of tests
// failing one by one far into the run. A test never skips for want of one of them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {object} Prerequisite
 * @property {string} debianPackage The package that brings it.
 * @property {() => boolean} present Whether the machine has it.
 * @property {string} neededBy The tests that use it, for the message.
 * @property {boolean} [withoutRecommends] Install without the package's recommendations (apache2-doc
 *   recommends the Apache server itself, which nothing here wants installed or running).
 */

/** Whether a program is on the PATH. */
function onPath(program) {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && existsSync(join(dir, program)));
}

/** A PostgreSQL server the way the tests' throwaway cluster finds one (throwaway-postgres.test-support.ts). */
function postgresServerPresent() {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  return (
    versions.some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`)) || onPath('initdb')
  );
}

/** A Debian HTML manual, by the page its tests and the search harness start from. */
function manual(debianPackage, indexPage, neededBy, withoutRecommends = false) {
  return { debianPackage, present: () => existsSync(indexPage), neededBy, withoutRecommends };
}

const CONVERSION_AND_QUESTIONS =
  'the HTML-to-Markdown tests (real pages) and the search question set (judged pages)';
const QUESTIONS = 'the search question set (its judged pages are checked against the manual)';

/** @type {readonly Prerequisite[]} */
export const TEST_PREREQUISITES = [
  {
    debianPackage: 'postgresql',
    present: postgresServerPresent,
    neededBy: 'the PostgreSQL store and API tests (a throwaway cluster each)',
  },
  manual('python3.11-doc', '/usr/share/doc/python3.11/html/index.html', CONVERSION_AND_QUESTIONS),
  manual('git-doc', '/usr/share/doc/git-doc/index.html', CONVERSION_AND_QUESTIONS),
  manual('sqlite3-doc', '/usr/share/doc/sqlite3/index.html', CONVERSION_AND_QUESTIONS),
  manual('python-django-doc', '/usr/share/doc/python-django-doc/html/index.html', QUESTIONS),
  manual('octave-doc', '/usr/share/doc/octave/octave.html/index.html', QUESTIONS),
  manual('postgresql-doc-15', '/usr/share/doc/postgresql-doc-15/html/index.html', QUESTIONS),
  manual('apache2-doc', '/usr/share/doc/apache2-doc/manual/en/index.html', QUESTIONS, true),
  manual(
    'mkdocs-literate-nav-doc',
    '/usr/share/doc/mkdocs-literate-nav-doc/html/index.html',
    'the HTML-to-Markdown fidelity test (a Material for MkDocs site, its icons inline SVG)',
  ),
];

/**
 * The prerequisites the machine lacks.
 * @param {readonly Prerequisite[]} prerequisites
 * @returns {Prerequisite[]}
 */
export function missingPrerequisites(prerequisites = TEST_PREREQUISITES) {
  return prerequisites.filter((prerequisite) => !prerequisite.present());
}

/**
 * The apt-get commands that install `missing` (arguments only, after `apt-get`): one for the
 * packages installed as Debian recommends, one for those installed without their recommendations.
 * @param {readonly Prerequisite[]} missing
 * @returns {string[][]}
 */
export function aptInstallCommands(missing) {
  const plain = missing.filter((p) => !p.withoutRecommends).map((p) => p.debianPackage);
  const bare = missing.filter((p) => p.withoutRecommends).map((p) => p.debianPackage);
  return [
    ...(plain.length > 0 ? [['install', '-y', '-qq', ...plain]] : []),
    ...(bare.length > 0 ? [['install', '-y', '-qq', '--no-install-recommends', ...bare]] : []),
  ];
}

function main() {
  const missing = missingPrerequisites();
  if (missing.length === 0) return 0;
  const commands = aptInstallCommands(missing);
  const lines = missing.map((p) => `  ${p.debianPackage}: ${p.neededBy}`).join('\n');
  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall) {
    const shown = commands.map((args) => `sudo apt-get ${args.filter((a) => a !== '-qq').join(' ')}`);
    console.error(
      `The tests need Debian packages this machine lacks:\n${lines}\nInstall them, then run the tests again:\n  ${shown.join(' && ')}`,
    );
    return 1;
  }
  console.log(`Installing the Debian packages the tests need:\n${lines}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ...commands]) {
    const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (run.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed (exit ${run.status ?? run.signal})`);
      return 1;
    }
  }
  const still = missingPrerequisites();
  if (still.length > 0) {
    console.error(`Still missing after apt-get: ${still.map((p) => p.debianPackage).join(', ')}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main();
}
