import type { CheerioAPI } from 'cheerio';
import type { DomIndex } from './dom-index.js';
import type { EvidenceKind } from './evidence.js';
import { type FactNode, newNode, type PageFacts } from './page-facts.js';
import { parseDate } from './parse-date.js';
import { findHeadline, readBylines } from './read-byline.js';
import { readSignatures } from './read-signatures.js';
import {
  linkedValue,
  readDateStatement,
  readManualPage,
  readShortSections,
  readTitleFacts,
} from './read-statements.js';
import {
  attrOf,
  BLOCK_TAGS,
  blockText,
  closestWhere,
  collapse,
  isWithin,
  type Selection,
  tagName,
} from './text-utils.js';

const LIST_TAGS = new Set(['ul', 'ol']);
const MAIN_TAGS = new Set(['main', 'article']);
const DATE_CLASS = /date|posted|published/i;
const TABLE_DL_NAV = new Set(['table', 'dl', 'nav']);
const CHROME_TAGS = new Set(['nav', 'header', 'footer']);
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** "Label: value" with a short label that starts with a letter. */
const LABEL_VALUE = /^([\p{L}][\p{L}\p{N} &/()'’.#_-]{0,40}?)\s*[:：]\s+(.{1,400})$/u;
/** A label with nothing after its colon: its value is on the next line. */
const LABEL_ALONE = /^[\p{L}][\p{L}\p{N} &/()'’.#_-]{0,40}[:：]$/u;
/** A value quoted as a whole ("…", “…”, «…»): the quotes are not part of it. */
const QUOTED = /^(?:"([^"]+)"|“([^”]+)”|«\s?([^»]+?)\s?»|'([^']+)')$/u;

/** The value without quotes around the whole of it. */
export function unquote(value: string): string {
  const m = QUOTED.exec(value.trim());
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? value).trim() : value;
}

/** Class names that mark the label half of a two-element label/value pair. */
const LABEL_CLASS = /(^|[\s_-])(label|key|term|name|title|caption|attr)([\s_-]|$)/i;
/** A price with a currency sign or code on either side. */
const PRICE_PATTERN =
  /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|JPY|SEK|NOK|DKK|PLN|INR)\b)\s?\d[\d.,\u00a0 ]*\d|\d[\d.,\u00a0 ]*\s?(?:€|£|\b(?:EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|kr|zł)\b)/u;
const EMAIL_PATTERN = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const PHONE_PATTERN = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){2,4}/g;
/** Digit groups that are dates (2024-03-05, 05.03.2024, 5/3/24), which the phone pattern would also match. */
const DATE_LIKE = /^(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})(?:$|[\sT])/;

/** The first phone number in `text` that is not a date. */
function firstPhone(text: string): string | undefined {
  for (const match of text.matchAll(PHONE_PATTERN)) {
    if (!DATE_LIKE.test(match[0].trim())) return match[0];
  }
  return undefined;
}

/**
 * Reads the page's visible structure into a node and a list of tables:
 * the article's `h1` (`headline`), bylines (`byline`, see `read-byline.ts`), `<time>` elements
 * (`date`), definition lists, two-column tables, "Label: value" lines and
 * label/value element pairs (keyed by their label), lists (keyed by the
 * heading before them), and last the first price, e-mail, phone, image and
 * substantial paragraph found by pattern. Expects a document without
 * scripts and styles (`read-page.ts` drops them after reading JSON-LD).
 */
export function readStructure(
  $: CheerioAPI,
  index: DomIndex,
  pageUrl: string,
  statedTitles: string[] = [],
): Pick<PageFacts, 'structure' | 'tables' | 'text'> {
  const node = newNode('structure', 'label');
  const add = (key: string, value: string | FactNode, evidence: EvidenceKind = 'label') => {
    // "Revenue (2023):" is keyed "Revenue".
    const k = collapse(key.replace(/\s*\([^)]*\)\s*/g, ' ')).replace(/[:：]$/, '');
    if (k && (typeof value !== 'string' || value !== '')) node.entries.push({ key: k, value, evidence });
  };

  // The article's heading: the <h1> that matches the page's stated title, else the first of its <article>/<main>.
  const headline = findHeadline($, index, statedTitles);
  const h1 = headline ? collapse($(headline.element).text()) : '';
  if (h1) add('headline', h1, headline?.confirmed ? 'headline' : 'h1');
  readBylines($, index, node, headline?.element);
  const titles = h1 ? [...statedTitles, h1] : statedTitles;
  readTitleFacts(titles, add);
  readManualPage($, index, titles, add);
  readShortSections($, index, pageUrl, add);
  // Documented functions and classes, each keyed by what it is ("functions": [{ name, signature, description }]).
  const documented = readSignatures(index);
  for (const item of documented) add(item.kind, item.node, 'signature');
  for (const el of index.tag('time')) {
    const $el = $(el);
    const value = $el.attr('datetime')?.trim() || collapse($el.text());
    const cls = `${$el.attr('class') ?? ''} ${$el.parent().attr('class') ?? ''}`.toLowerCase();
    const key = /publish|posted/.test(cls)
      ? 'published date'
      : /modif|updat/.test(cls)
        ? 'modified date'
        : /start/.test(cls)
          ? 'start date'
          : /end/.test(cls)
            ? 'end date'
            : 'date';
    if (value) add(key, value, 'time');
  }
  // Dates shown without <time> or a label: "Posted on March 3, 2024" in an element classed as a date.
  for (const el of index.all) {
    if (!DATE_CLASS.test(attrOf(el, 'class') ?? '')) continue;
    const $el = $(el);
    if ($el.children().length > 2 || $el.find('time').length > 0) continue;
    const text = collapse($el.text());
    if (text.length > 60 || !parseDate(text)) continue;
    const cls = ($el.attr('class') ?? '').toLowerCase();
    add(
      /publish|post/.test(cls) ? 'published date' : 'date',
      text.replace(/^(posted|published)(\s+on)?\s*/i, ''),
    );
  }

  const termLists: PageFacts['tables'] = [];
  for (const dl of index.tag('dl')) {
    let label = '';
    let terms: string[] = [];
    const pairs: [string, string][] = [];
    // Only this list's own terms: a list nested in a <dd> (a manual's option with its values) is read
    // as a list of its own, and reading it here too gave each of its terms twice.
    $(dl)
      .find('dt, dd')
      .filter((_, el) => $(el).closest('dl')[0] === dl)
      .each((_, el) => {
        const text = collapse($(el).text());
        if (tagName(el) === 'dt') {
          label = text;
          if (text) terms.push(text);
          return;
        }
        if (label && text) add(label, text);
        if (terms.length > 0 && text) pairs.push([terms.join(', '), text]);
        terms = [];
      });
    const list = termList(headingBefore($(dl)), pairs);
    if (list) termLists.push(list);
  }

  const tables: PageFacts['tables'] = [];
  for (const table of index.tag('table')) {
    const $table = $(table);
    if ($table.find('table').length > 0) continue; // layout table
    const rows = $table.find('tr').toArray();
    const cellsOf = (tr: (typeof rows)[number]) => $(tr).children('th, td').toArray();
    const pairRows = rows.filter((tr) => cellsOf(tr).length === 2);
    const firstCells = rows[0] ? cellsOf(rows[0]) : [];
    const headerRow =
      $table.find('thead tr').first().get(0) ??
      (firstCells.length >= 2 && firstCells.every((c) => tagName(c) === 'th') ? rows[0] : undefined);
    if (!headerRow && pairRows.length === rows.length && rows.length > 0) {
      for (const tr of rows) {
        const [k, v] = cellsOf(tr);
        add($(k).text(), collapse($(v).text()));
      }
      continue;
    }
    if (!headerRow) continue;
    const headers = cellsOf(headerRow).map((c) => collapse($(c).text()));
    const rowNodes: FactNode[] = [];
    for (const tr of rows) {
      if (tr === headerRow || $(tr).parent().is('thead')) continue;
      const cells = cellsOf(tr);
      if (cells.length === 0) continue;
      const row = newNode('structure', 'table');
      cells.forEach((cell, i) => {
        const header = headers[i];
        const text = collapse($(cell).text());
        if (header && text) row.entries.push({ key: header, value: text });
      });
      if (row.entries.length > 0) rowNodes.push(row);
    }
    if (rowNodes.length === 0) continue;
    const caption = collapse($table.find('caption').first().text()) || headingBefore($table);
    tables.push({ caption, headers, rows: rowNodes });
    if (caption) for (const row of rowNodes) add(caption, row, 'table');
  }

  // After the real tables, so that a table wins a tie with a definition list (or documented items).
  tables.push(...termLists);
  if (documented.length > 0)
    tables.push({
      caption: '',
      headers: ['name', 'signature', 'parameter', 'returns', 'description'],
      rows: documented.map((item) => item.node),
    });

  // Innermost blocks: "Label: value" lines, and label/value element pairs.
  // Blocks holding other blocks are marked once, walking up from each block.
  const blocks = index.tags(BLOCK_TAGS);
  const outer = new Set<unknown>();
  for (const el of blocks) {
    let parent = (el as { parent?: unknown }).parent;
    while (parent && !outer.has(parent)) {
      outer.add(parent);
      parent = (parent as { parent?: unknown }).parent;
    }
  }
  for (const el of blocks) {
    if (outer.has(el)) continue;
    const $el = $(el);
    if (closestWhere(el, (n) => TABLE_DL_NAV.has(tagName(n)))) continue;
    // Lines, and segments of lines joined by a middle dot or bar ("Press release · Date: 12.03.2024").
    const lines = blockText(el)
      .split(/\n|\s[·|•]\s/)
      .map(collapse)
      .filter((l) => l.length > 0);
    let paired = false;
    lines.forEach((line, i) => {
      // "Label:" alone on its line states the next line.
      const next = lines[i + 1];
      const m =
        LABEL_VALUE.exec(line) ??
        (next && LABEL_ALONE.test(line) ? LABEL_VALUE.exec(`${line} ${next}`) : null);
      if (m?.[1] && m[2] && !/^https?$/i.test(m[1])) {
        add(m[1], linkedValue($, el, unquote(m[2]), pageUrl));
        paired = true;
      } else if (readDateStatement(line, add)) paired = true;
    });
    // A statement broken over lines ("Last updated<br>2024-05-31 00:35:55 UTC").
    if (!paired && lines.length > 1) paired = readDateStatement(collapse(lines.join(' ')), add);
    if (paired) continue;
    const kids = $el.children().toArray();
    if (kids.length === 2 && LABEL_CLASS.test($(kids[0]).attr('class') ?? '')) {
      const label = collapse($(kids[0]).text());
      const value = collapse($(kids[1]).text());
      if (label.length <= 40 && value) add(label, value);
    }
  }

  for (const list of index.tags(LIST_TAGS)) {
    const $list = $(list);
    if (closestWhere(list, (n) => CHROME_TAGS.has(tagName(n)) || attrOf(n, 'role') === 'navigation'))
      continue;
    const items = $list
      .children('li')
      .toArray()
      .map((li) => collapse($(li).text()))
      .filter(Boolean);
    if (items.length < 2) continue;
    const heading = headingBefore($list);
    if (heading) for (const item of items) add(heading, item, 'list');
  }

  const main = index.all.find((el) => MAIN_TAGS.has(tagName(el)) || attrOf(el, 'role') === 'main');
  // Fragments and pages parsed without a <body> element fall back to the whole document.
  const body = index.first('body') ?? $.root().get(0);
  const root = main ?? body;
  const text = lines(blockText(body));
  const mainText = root === body ? text : lines(blockText(root));
  // The first price right after the headline is where shops show it; any other first price is a guess.
  const headAt = h1 ? mainText.indexOf(h1) : -1;
  const nearPrice =
    headAt >= 0 ? PRICE_PATTERN.exec(mainText.slice(headAt, headAt + h1.length + 600))?.[0] : undefined;
  const price = nearPrice ?? PRICE_PATTERN.exec(mainText)?.[0];
  if (price) add('price', price.trim(), nearPrice ? 'pattern-sure' : 'pattern');
  const links = index.tag('a').map((a) => attrOf(a, 'href')?.trim() ?? '');
  const mail = links.find((href) => /^mailto:/i.test(href));
  const emails = new Set(text.match(new RegExp(EMAIL_PATTERN.source, 'g')) ?? []);
  const email = mail ? mail.replace(/^mailto:/i, '').split('?')[0] : [...emails][0];
  // A mailto: link is a statement; the page's only address is nearly one; one of several is a guess.
  if (email) add('email', email, mail ? 'label' : emails.size === 1 ? 'pattern-sure' : 'pattern');
  const tel = links.find((href) => /^tel:/i.test(href));
  const phone = tel ? tel.replace(/^tel:/i, '') : firstPhone(text);
  if (phone) add('telephone', phone.trim(), tel ? 'label' : 'pattern');
  const images = index.tag('img').filter((img) => attrOf(img, 'src'));
  const img = attrOf(images.find((i) => isWithin(i, root)) ?? images[0], 'src');
  if (img) add('image', absolutise(img, pageUrl), 'pattern');
  const paragraph = index
    .tag('p')
    .filter((p) => isWithin(p, root))
    .map((p) => collapse($(p).text()))
    .find((t) => t.length >= 80 && !LABEL_VALUE.test(t));
  if (paragraph) add('description', paragraph, 'pattern');
  return { structure: node, tables, text };
}

/** The keys a term of a definition list is read under, besides its heading's head noun: what a term is called. */
const TERM_KEYS = ['term', 'name'];
/** The last word of a heading, its head noun in English ("Memcheck Command-Line Options" → "Options"). */
const HEAD_NOUN = /([\p{L}][\p{L}\p{N}_]*)[^\p{L}\p{N}]*$/u;

/**
 * A definition list under a heading read as a table of two columns: each
 * term (several `<dt>`s over one `<dd>` joined by commas) with its text
 * (`description`), the term keyed `term`, `name` and the heading's head noun
 * ("OPTIONS", whose singular names an `option` property), so an
 * array-of-objects property named like the heading gets one item per term
 * (`bestTable` in `schema-filler.ts`). The terms were only read one by one as
 * "Label: value" facts, so an "options" property found nothing. Needs a
 * heading and two terms: a lone term is a label.
 */
function termList(heading: string, pairs: [string, string][]): PageFacts['tables'][number] | undefined {
  if (!heading || pairs.length < 2) return undefined;
  const noun = HEAD_NOUN.exec(heading)?.[1];
  // A heading "Description(s)" or "Terms" is no name for the term: the text is the description.
  const termKeys = noun && !/^(?:term|name|description)s?$/i.test(noun) ? [noun, ...TERM_KEYS] : TERM_KEYS;
  const rows = pairs.map(([term, text]) => {
    const row = newNode('structure', 'table');
    for (const key of termKeys) row.entries.push({ key, value: term });
    row.entries.push({ key: 'description', value: text });
    return row;
  });
  return { caption: heading, headers: [...termKeys, 'description'], rows, terms: true };
}

/**
 * The heading that introduces an element: the nearest earlier sibling that is
 * a heading or a short line (≤ 60 characters), looking up to three ancestors up.
 */
function headingBefore($el: Selection): string {
  let current = $el;
  for (let level = 0; level < 3 && current.length > 0; level++) {
    let prev = current.prev();
    while (prev.length > 0) {
      const text = collapse(prev.text());
      if (text) {
        const tag = tagName(prev.get(0));
        const shortLine =
          text.length <= 60 && !LABEL_VALUE.test(text) && !['ul', 'ol', 'table', 'dl'].includes(tag);
        if (HEADING_TAGS.has(tag) || shortLine) {
          return text.replace(/[:：]$/, '');
        }
        return '';
      }
      prev = prev.prev();
    }
    current = current.parent();
    if (HEADING_TAGS.has(tagName(current.children().first().get(0)))) {
      const text = collapse(current.children().first().text());
      if (text) return text;
    }
  }
  return '';
}

/** Text with each line collapsed and blank lines dropped. */
function lines(text: string): string {
  return text.split('\n').map(collapse).filter(Boolean).join('\n');
}

/** Resolves a relative URL against the page's URL; leaves it as is when that fails. */
export function absolutise(href: string, base: string): string {
  try {
    return new URL(href, base).toString();
  } catch {
    return href;
  }
}
