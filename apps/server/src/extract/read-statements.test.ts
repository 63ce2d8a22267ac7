import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { DomIndex } from './dom-index.js';
import { type FactNode, isNode } from './page-facts.js';
import {
  codeLines,
  linkedValue,
  readDateStatement,
  readManualPage,
  readShortSections,
  readTitleFacts,
} from './read-statements.js';

const pageUrl = 'https://docs.example/lib/page.html';

/** Collects what a reader adds, as `[key, value, evidence]` (a link node as `{name, url}`). */
function collect() {
  const found: [string, unknown, string | undefined][] = [];
  const add = (key: string, value: string | FactNode, evidence?: string) => {
    const shown = isNode(value) ? Object.fromEntries(value.entries.map((e) => [e.key, e.value])) : value;
    found.push([key, shown, evidence]);
  };
  return { found, add };
}

function parse(html: string) {
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  return { $, index: new DomIndex($) };
}

describe('readShortSections', () => {
  it('reads a heading followed by one short block as a labelled statement, its only link kept', () => {
    const { $, index } =
      parse(`<div><h4>Previous topic</h4><p><a href="json.html">json — JSON encoder</a></p></div>
      <div><h4>This page</h4><ul><li>Report a bug</li><li>Show source</li></ul><p>More</p></div>`);
    const { found, add } = collect();
    readShortSections($, index, pageUrl, add);
    expect(found).toEqual([
      [
        'Previous topic',
        { name: 'json — JSON encoder', url: 'https://docs.example/lib/json.html' },
        'section',
      ],
    ]);
  });

  it('does not read a section of prose, of several blocks, or a list or table (read by their own readers)', () => {
    const long = 'word '.repeat(60);
    const { $, index } = parse(
      `<h2>Intro</h2><p>${long}</p><h2>Two</h2><p>a</p><p>b</p><h2>Colors</h2><ul><li>Sand</li><li>Moss</li></ul><h2>Sizes</h2><table><tr><td>S</td></tr></table>`,
    );
    const { found, add } = collect();
    readShortSections($, index, pageUrl, add);
    expect(found).toEqual([]);
  });

  it('reads a heading over one code block, in its wrappers, as the code it names (a SYNOPSIS, a signature)', () => {
    const usage =
      '<em>git add</em> [--verbose | -v] [--dry-run | -n]\n          [--] [&lt;pathspec&gt;&#8230;]';
    const { $, index } = parse(
      `<div class="sect1"><h2 id="_synopsis">SYNOPSIS</h2><div class="sectionbody"><div class="verseblock">
      <pre class="content">${usage}</pre><div class="attribution"></div></div></div></div>
      <h3>Signature</h3><pre>readFile(path[, options], callback)</pre>`,
    );
    const { found, add } = collect();
    readShortSections($, index, pageUrl, add);
    // The code's lines are kept: a multi-line SYNOPSIS had been run into one line.
    expect(found).toEqual([
      ['SYNOPSIS', 'git add [--verbose | -v] [--dry-run | -n]\n          [--] [<pathspec>…]', 'code'],
      ['Signature', 'readFile(path[, options], callback)', 'code'],
    ]);
  });

  it('keeps code as its lines: no trailing spaces, no blank lines around it, no indentation all lines share', () => {
    expect(codeLines('\r\n\n    run --fast \r\n      --into=<file>\u00a0\n\n    done\n\n')).toBe(
      'run --fast\n  --into=<file>\n\ndone',
    );
    expect(codeLines('one line')).toBe('one line');
  });

  it('does not read code with prose around it, several code blocks, or a listing', () => {
    const listing = 'print(1)\n'.repeat(300);
    const { $, index } = parse(
      `<h2>Example</h2><div><p>Run this:</p><pre>make</pre></div>
      <h2>Forms</h2><div><pre>a</pre><pre>b</pre></div>
      <h2>Program</h2><pre>${listing}</pre>`,
    );
    const { found, add } = collect();
    readShortSections($, index, pageUrl, add);
    expect(found).toEqual([]);
  });
});

describe('readManualPage', () => {
  it('reads the name(section) title and the NAME line of a command manual page', () => {
    const { $, index } = parse(
      '<h2>NAME</h2><div><p>git-commit - Record changes to the repository</p></div><h2>SYNOPSIS</h2><pre>git commit</pre>',
    );
    const { found, add } = collect();
    readManualPage($, index, ['git-commit(1)'], add);
    expect(found).toEqual([
      ['manual section', '1', 'manual'],
      ['name', 'git-commit', 'manual'],
      ['command', 'git-commit', 'manual'],
      ['summary', 'Record changes to the repository', 'manual'],
    ]);
  });

  it('does not call a library function a command, and reads nothing from a page that is not a manual page', () => {
    const fn = parse('<h2>NAME</h2><p>printf, fprintf - formatted output conversion</p>');
    const one = collect();
    readManualPage(fn.$, fn.index, ['printf(3)'], one.add);
    expect(one.found.map(([k]) => k)).toEqual(['manual section', 'name', 'summary']);
    const other = parse('<h2>NAME</h2><p>a - b</p>');
    const two = collect();
    readManualPage(other.$, other.index, ['Release notes (2024)'], two.add);
    expect(two.found).toEqual([]);
  });
});

describe('readTitleFacts', () => {
  it('reads the one version number and the one ISO date a title states', () => {
    const { found, add } = collect();
    readTitleFacts(['SQLite Release 3.25.0 On 2018-09-15'], add);
    expect(found).toEqual([
      ['version', '3.25.0', 'headline'],
      ['date', '2018-09-15', 'headline'],
    ]);
  });

  it('reads no version from prices, dates or titles naming several versions', () => {
    const { found, add } = collect();
    readTitleFacts(['Kettle $19.99', 'Upgrading from 2.7 to 3.11', 'News of 12.03.2024'], add);
    expect(found).toEqual([]);
  });
});

describe('readDateStatement', () => {
  it.each([
    ['Last updated on October 07, 2026. Found a bug?', 'Last updated', 'October 07, 2026.'],
    ['Last updated 2024-05-31 00:35:55 UTC', 'Last updated', '2024-05-31 00:35:55 UTC'],
    ['Released: 5 March 2024', 'Released', '5 March 2024'],
  ])('reads %s', (line, key, value) => {
    const { found, add } = collect();
    expect(readDateStatement(line, add)).toBe(true);
    expect(found).toEqual([[key, value, undefined]]);
  });

  it('reads nothing when no date follows the words', () => {
    const { found, add } = collect();
    expect(readDateStatement('Updated our privacy policy for you', add)).toBe(false);
    expect(found).toEqual([]);
  });
});

describe('linkedValue', () => {
  it('is the text alone when the element has no link, several, or one with other text', () => {
    const { $ } = parse(
      '<p id="a">Source: Lib/json</p><p id="b">Source: <a href="/x">x</a> <a href="/y">y</a></p><p id="c">Source: <a href="/x">here</a> Lib/json</p>',
    );
    expect(linkedValue($, $('#a').get(0), 'Lib/json', pageUrl)).toBe('Lib/json');
    expect(linkedValue($, $('#b').get(0), 'x y', pageUrl)).toBe('x y');
    expect(linkedValue($, $('#c').get(0), 'here Lib/json', pageUrl)).toBe('here Lib/json');
  });
});
