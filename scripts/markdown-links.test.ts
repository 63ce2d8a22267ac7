import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { markdownLinkProblems } from './markdown-links.js';

const repository = fileURLToPath(new URL('..', import.meta.url));

describe('Markdown links', () => {
  it('every relative link of every Markdown file of the repository resolves inside it', async () => {
    // Tracked files and new ones not yet committed, less what .gitignore hides (node_modules, dist, …).
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'],
      {
        cwd: repository,
        encoding: 'utf8',
      },
    )
      .split('\n')
      // Test fixtures are data a test feeds to a program (links with placeholders filled at test time).
      .filter((file) => file && !file.includes('/fixtures/'));
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'apps/server/README.md']));
    expect(await markdownLinkProblems(repository, files)).toEqual([]);
    // Parses every Markdown file of the repository (about 2.5 s alone, twice that on a loaded
    // machine): the limit only stops a hang, it is not a speed check.
  }, 60_000);

  describe('the check itself', () => {
    const root = mkdtempSync(join(tmpdir(), 'webdata-links-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    it('reports missing files, missing headings and links out of the repository, and nothing else', async () => {
      write(
        'README.md',
        [
          '# Top',
          '[ok file](docs/guide.md) [ok heading](docs/guide.md#running-it-in-production)',
          '[ok folder](docs) [ok own heading](#top) [ok other file](data.json) [web](https://example.org/x)',
          '[gone](docs/missing.md) [bad heading](docs/guide.md#no-such-heading) [out](../shared/spec.md)',
          '',
          '```md',
          '[inside a code block](nowhere.md)',
          '```',
        ].join('\n'),
      );
      write(
        'docs/guide.md',
        '# Guide\n\n## Running it in production\n\n[back](../README.md#top) [bad](#nope)\n',
      );
      write('data.json', '{}');
      const problems = await markdownLinkProblems(root, ['README.md', 'docs/guide.md']);
      expect(problems).toHaveLength(5);
      expect(problems.join('\n')).toMatch(/README\.md:4:\d+: .*docs\/missing\.md/);
      expect(problems.join('\n')).toMatch(/README\.md:4:\d+: .*no-such-heading/);
      expect(problems.join('\n')).toMatch(
        /README\.md:4:\d+: Link to `\.\.\/shared\/spec\.md` leaves the repository/,
      );
      expect(problems.join('\n')).toMatch(/guide\.md:5:\d+: .*nope/);
    });
  });
});
