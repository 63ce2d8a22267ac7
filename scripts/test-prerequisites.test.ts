import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aptInstallCommands, missingPrerequisites, TEST_PREREQUISITES } from './test-prerequisites.mjs';

const named = (debianPackage: string, present: boolean, withoutRecommends = false) => ({
  debianPackage,
  present: () => present,
  neededBy: 'a test',
  withoutRecommends,
});

describe('the tests’ Debian prerequisites', () => {
  it('this machine has every one (pnpm test installed them, or says how, before any test)', () => {
    expect(missingPrerequisites().map((p) => p.debianPackage)).toEqual([]);
  });

  it('names each manual the search question sets judge pages of', () => {
    // A question set whose manual is not installed fails its test: the list must know every manual.
    const manuals = readFileSync(
      new URL('../apps/server/quality/search/manuals.ts', import.meta.url),
      'utf8',
    );
    const packages = [...manuals.matchAll(/debianPackage: '([^']+)'/g)].map((match) => match[1]);
    expect(packages.length).toBeGreaterThanOrEqual(7);
    expect(TEST_PREREQUISITES.map((p) => p.debianPackage)).toEqual(expect.arrayContaining(packages));
  });

  it('lists only what is missing, apache2-doc apart without its recommendation (the Apache server)', () => {
    const missing = missingPrerequisites([
      named('postgresql', false),
      named('git-doc', true),
      named('apache2-doc', false, true),
      named('octave-doc', false),
    ]);
    expect(aptInstallCommands(missing)).toEqual([
      ['install', '-y', '-qq', 'postgresql', 'octave-doc'],
      ['install', '-y', '-qq', '--no-install-recommends', 'apache2-doc'],
    ]);
    expect(TEST_PREREQUISITES.find((p) => p.debianPackage === 'apache2-doc')?.withoutRecommends).toBe(true);
  });

  it('installs nothing when nothing is missing', () => {
    expect(aptInstallCommands(missingPrerequisites([named('git-doc', true)]))).toEqual([]);
  });

  it('runs first in the README’s test command', () => {
    const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(root.scripts.test).toMatch(/^node scripts\/test-prerequisites\.mjs && /);
    // With everything present it says nothing and lets the tests run.
    expect(
      execFileSync(process.execPath, [new URL('./test-prerequisites.mjs', import.meta.url).pathname], {
        encoding: 'utf8',
      }),
    ).toBe('');
  });
});
