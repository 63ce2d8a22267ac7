import { type FactNode, newNode } from './page-facts.js';
import { collapse } from './text-utils.js';

/** Separators sites put between a page's headline and their own name: ` | `, ` - `, ` – `, ` — `, ` · `, ` » `… */
const SEPARATOR = /\s+(?:\||-|–|—|·|•|»|›|::|~|\/)\s+/u;

/** A segment short enough to be a site's name: at most five words and 40 characters. */
function nameLike(text: string): boolean {
  return text.length > 0 && text.length <= 40 && text.split(/\s+/).length <= 5;
}

const normal = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The title split at its separators, keeping each separator with the segment after it. */
export function segments(title: string): { text: string; separator: string }[] {
  const out: { text: string; separator: string }[] = [];
  let rest = title;
  let separator = '';
  for (;;) {
    const m = SEPARATOR.exec(rest);
    if (!m) break;
    out.push({ text: rest.slice(0, m.index), separator });
    separator = m[0];
    rest = rest.slice(m.index + m[0].length);
  }
  out.push({ text: rest, separator });
  return out.filter((s) => s.text.trim() !== '');
}

/**
 * The document `<title>` read as evidence: the whole title (`title`), and, when a
 * separator sets the site's name apart, the headline without it (also a
 * `title` when it has five words or more, with the stronger `title-head`
 * evidence: a title that names its site is the headline plus the site) and
 * the site's name. The site's part is the first or last segment that another
 * statement of the site's name (`og:site_name`, `application-name`, a
 * `WebSite` item) matches; failing that, a short last segment after a longer
 * headline ("How to Build a Terrarium | eHow"). Colons are never split on:
 * they belong to headlines ("Hermitian matrix: definition").
 */
export function readDocumentTitle(rawTitle: string, knownSiteNames: string[]): FactNode {
  const node = newNode('document', 'title-whole');
  const title = collapse(rawTitle);
  if (!title) return node;
  node.entries.push({ key: 'title', value: title });
  const parts = segments(title);
  if (parts.length < 2) return node;
  const known = new Set(knownSiteNames.map(normal).filter(Boolean));
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  let site: typeof first | undefined;
  if (known.has(normal(last.text))) site = last;
  else if (known.has(normal(first.text))) site = first;
  else {
    const head = parts
      .slice(0, -1)
      .map((p) => p.text)
      .join(' ');
    if (nameLike(last.text) && head.split(/\s+/).length >= 2) site = last;
  }
  if (!site) return node;
  const headline = parts
    .filter((p) => p !== site)
    .map((p, i) => (i === 0 ? p.text : `${p.separator}${p.text}`))
    .join('')
    .trim();
  // A headline of a few words may be half of a title ("Apples – Oranges"): only a longer one is the
  // title itself (Readability keeps titles whole below five words too); a short one stays a headline.
  if (headline)
    node.entries.push({
      key: headline.split(/\s+/).length > 4 ? 'title' : 'headline',
      value: headline,
      evidence: 'title-head',
    });
  node.entries.push({ key: 'site name', value: site.text.trim(), evidence: 'title-site' });
  return node;
}
