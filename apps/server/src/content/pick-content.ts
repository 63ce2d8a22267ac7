/**
 * Picks the main content of a page that does not mark it, on the light
 * tree, by the rules of Mozilla's Readability (0.6, `_grabArticle`), in
 * two linear walks instead of Readability's repeated subtree reads:
 * - unlikely candidates go first: elements whose class or id reads like
 *   chrome (`comment`, `sidebar`, `footer`, `menu`, …) unless it also reads
 *   like content (`article`, `body`, `content`, `main`, …), elements with a
 *   navigation-like ARIA role, hidden elements;
 * - every paragraph-like block (`p`, `pre`, `td`, `section`, `h2`–`h6`, a
 *   `<div>` holding no block, and the loose text of a `<div>` that does)
 *   with at least 25 characters scores 1 + its commas + one per 100
 *   characters (at most 3), given in full to its parent, half to its
 *   grandparent and a third of a level to the next three ancestors;
 * - a container starts from its tag (`div` +5, `pre`/`td`/`blockquote` +3,
 *   lists and forms −3, headings −5) and its class and id (±25 each for
 *   content-like and chrome-like names), and its score is scaled by the
 *   share of its text that is not link text;
 * - the best container wins, moving up to an ancestor that most of the
 *   near-best ones share or that scores higher, and its siblings that score
 *   well (or read as prose) are kept with it;
 * - beyond Readability, the pick then grows to each ancestor (below the
 *   body) whose text beside it is prose rather than links: on a manual page
 *   Readability keeps the best of many sections, this keeps them all.
 * A page with one `<article>` holding text has that article taken as it is.
 */
import { type ContentElement, ELEMENT_NODE, type LightElement, LightText } from './light-dom.js';

/** Readability's `unlikelyCandidates`, `okMaybeItsACandidate`, `positive` and `negative` (0.6). */
const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE_CONTENT = /and|article|body|column|content|main|mathjax|shadow/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const UNLIKELY_ROLES = new Set([
  'menu',
  'menubar',
  'complementary',
  'navigation',
  'alert',
  'alertdialog',
  'dialog',
]);
/** Never content, never scored (an inline `<svg>` is not scored either, and left to the clean-up). */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'EMBED']);
const SCORED = new Set(['SECTION', 'H2', 'H3', 'H4', 'H5', 'H6', 'P', 'TD', 'PRE']);
/** A `<div>` holding one of these (at any depth) is a container, not a paragraph. */
const BLOCKS = new Set(['BLOCKQUOTE', 'DL', 'DIV', 'IMG', 'OL', 'P', 'PRE', 'TABLE', 'UL']);
const TAG_SCORE: Record<string, number> = {
  DIV: 5,
  PRE: 3,
  TD: 3,
  BLOCKQUOTE: 3,
  ADDRESS: -3,
  OL: -3,
  UL: -3,
  DL: -3,
  DD: -3,
  DT: -3,
  LI: -3,
  FORM: -3,
  H1: -5,
  H2: -5,
  H3: -5,
  H4: -5,
  H5: -5,
  H6: -5,
  TH: -5,
};
const MIN_PARAGRAPH = 25;
/** Readability's bound on a prose paragraph's link density (a sibling `<p>` under it is kept). */
const PROSE_LINK_DENSITY = 0.25;
const TOP_CANDIDATES = 5;
/** Readability's `charThreshold`: a pick with less text is no pick. */
export const PICKED_MIN_TEXT = 500;

/**
 * Text as Readability measures it (whitespace runs count as one character,
 * the ends trimmed), kept so that texts can be joined: its length with
 * every whitespace run counted once, and whether it starts or ends in one.
 * A tally's runs are grown in place and a text's is the one
 * {@link measured}, rather than an object per text and per join: the walk
 * below meets every text node and element of the page.
 */
interface TextRun {
  length: number;
  lead: boolean;
  trail: boolean;
}

/** A run's length, its ends trimmed. */
function trimmed(run: TextRun): number {
  return Math.max(0, run.length - (run.lead ? 1 : 0) - (run.trail ? 1 : 0));
}

/** Appends `added` to `run` (a whitespace run where they meet counts once). */
function appendRun(run: TextRun, added: TextRun): void {
  if (added.length === 0) return;
  if (run.length === 0) {
    run.length = added.length;
    run.lead = added.lead;
  } else run.length += added.length - (run.trail && added.lead ? 1 : 0);
  run.trail = added.trail;
}

/** What the second walk learns of an element's subtree. */
interface Tally {
  /** Its text as a run (see {@link trimmed}). */
  run: TextRun;
  /** Characters of text, trimmed, whitespace runs counted as one. */
  text: number;
  /** Characters of link text (in-page `#` links weigh 0.3, as in Readability). */
  links: number;
  commas: number;
  /** Whether it holds a {@link BLOCKS} element. */
  hasBlock: boolean;
  /** For a container: the text directly in it or in inline children (Readability wraps it in a `<p>`), as a run. */
  loose: TextRun;
  looseLinks: number;
  looseCommas: number;
}

function hidden(element: LightElement): boolean {
  if (element.hasAttribute('hidden')) return true;
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  return style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

/** Whether an element is dropped before scoring (chrome by its name or role, or hidden). */
function unlikely(element: LightElement, inTableOrCode: boolean): boolean {
  if (hidden(element)) return true;
  const role = element.getAttribute('role');
  if (role !== null && UNLIKELY_ROLES.has(role)) return true;
  if (inTableOrCode || element.tagName === 'BODY' || element.tagName === 'A') return false;
  const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return UNLIKELY.test(names) && !MAYBE_CONTENT.test(names);
}

function classWeight(element: LightElement): number {
  let weight = 0;
  for (const name of [element.getAttribute('class'), element.getAttribute('id')]) {
    if (!name) continue;
    if (NEGATIVE.test(name)) weight -= 25;
    if (POSITIVE.test(name)) weight += 25;
  }
  return weight;
}

/** The last text {@link measure}d: its run and its commas. */
const measured: TextRun & { commas: number } = { length: 0, lead: false, trail: false, commas: 0 };

/** Runs of two or more of the whitespace Readability collapses (HTML's: space, tab, LF, CR, FF). */
const WHITESPACE_RUNS = /[ \n\t\r\f]{2,}/g;
/** Readability's `commas` (the comma in the scripts it knows) beyond ASCII's `,`. */
const OTHER_COMMAS = /[\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32\uff0c]/g;

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
}

/**
 * Measures a text into {@link measured}. With regular expressions and
 * `indexOf` rather than a loop over its characters: a text node is a slice
 * of the page, on which `charCodeAt` in a loop cost 12–13 ns a character
 * against 4 this way (the picker measures every text of the page).
 */
function measure(text: string): void {
  let length = text.length;
  if (length === 0) {
    measured.length = 0;
    measured.lead = false;
    measured.trail = false;
    measured.commas = 0;
    return;
  }
  WHITESPACE_RUNS.lastIndex = 0;
  for (let run = WHITESPACE_RUNS.exec(text); run !== null; run = WHITESPACE_RUNS.exec(text))
    length -= run[0].length - 1;
  let commas = 0;
  for (let at = text.indexOf(','); at >= 0; at = text.indexOf(',', at + 1)) commas += 1;
  commas += text.match(OTHER_COMMAS)?.length ?? 0;
  measured.length = length;
  measured.commas = commas;
  measured.lead = isWhitespace(text.charCodeAt(0));
  measured.trail = isWhitespace(text.charCodeAt(text.length - 1));
}

/**
 * The page's main content under `body`, picked as described above, with
 * chrome-like elements removed from the tree; null when no container holds
 * at least {@link PICKED_MIN_TEXT} characters (a short or unusual page:
 * Readability's own retries and fallbacks decide then). `pageUrl` (without
 * fragment) tells in-page links, which count less as link text.
 */
export function pickMainContent(body: LightElement, pageUrl: string): LightElement | null {
  const article = soleArticle(body);
  if (article) {
    measure(article.textContent);
    if (trimmed(measured) >= PICKED_MIN_TEXT) return article;
  }

  const hashPrefix = `${pageUrl.split('#', 1)[0]}#`;
  const tallies = new Map<LightElement, Tally>();
  const order: LightElement[] = []; // pre-order, so reversed it is post-order
  const doomed: LightElement[] = [];
  /** Child elements not dropped as unlikely (Readability has removed those by now). */
  const children = (element: LightElement): LightElement[] => {
    const list: LightElement[] = [];
    for (let child = element.firstElementChild; child; child = child.nextElementSibling)
      if (tallies.has(child)) list.push(child);
    return list;
  };

  // Walk 1 (pre-order): drop unlikely candidates, list the rest.
  // Two stacks side by side rather than a pair per element.
  const stack: LightElement[] = [body];
  const stackInTableOrCode: boolean[] = [false];
  while (stack.length > 0) {
    const element = stack.pop()!;
    const inTableOrCode = stackInTableOrCode.pop()!;
    // An inline SVG is neither scored nor dropped here: the clean-up after the pick keeps one that shows text.
    if (element.tagName === 'SVG') continue;
    if (SKIPPED.has(element.tagName) || (element !== body && unlikely(element, inTableOrCode))) {
      doomed.push(element);
      continue;
    }
    order.push(element);
    const childInTableOrCode = inTableOrCode || element.tagName === 'TABLE' || element.tagName === 'CODE';
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) {
      stack.push(child);
      stackInTableOrCode.push(childInTableOrCode);
    }
  }

  // Walk 2 (post-order): text, link text and commas of every subtree.
  for (let i = order.length - 1; i >= 0; i -= 1) {
    const element = order[i]!;
    const tally: Tally = {
      run: { length: 0, lead: false, trail: false },
      text: 0,
      links: 0,
      commas: 0,
      hasBlock: false,
      loose: { length: 0, lead: false, trail: false },
      looseLinks: 0,
      looseCommas: 0,
    };
    for (let node = element.first; node; node = node.next) {
      if (node instanceof LightText) {
        measure(node.textContent);
        appendRun(tally.run, measured);
        tally.commas += measured.commas;
        appendRun(tally.loose, measured);
        tally.looseCommas += measured.commas;
      } else if (node.nodeType === ELEMENT_NODE) {
        const child = node as LightElement;
        const sub = tallies.get(child);
        if (!sub) continue;
        appendRun(tally.run, sub.run);
        tally.links += sub.links;
        tally.commas += sub.commas;
        const block = BLOCKS.has(child.tagName) || sub.hasBlock;
        if (block) tally.hasBlock = true;
        else {
          appendRun(tally.loose, sub.run);
          tally.looseLinks += sub.links;
          tally.looseCommas += sub.commas;
        }
      }
    }
    tally.text = trimmed(tally.run);
    if (element.tagName === 'A') {
      const href = element.getAttribute('href') ?? '';
      tally.links = tally.text * (href.startsWith(hashPrefix) ? 0.3 : 1);
    }
    tallies.set(element, tally);
  }

  // A <div> around a single <p> (no other text, few links) is replaced by the <p> in Readability:
  // it is no level of the ancestry and no candidate.
  const wrappers = new Set<LightElement>();
  for (const element of order) {
    if (element.tagName !== 'DIV') continue;
    const live = children(element);
    if (live.length !== 1) continue;
    const only = live[0]!;
    const tally = tallies.get(element)!;
    if (
      only.tagName === 'P' &&
      trimmed(tally.loose) === 0 &&
      tally.text > 0 &&
      tally.links / tally.text < 0.25
    )
      wrappers.add(element);
  }

  // Scoring: each paragraph gives its score to its ancestors.
  const scores = new Map<LightElement, number>();
  const candidate = (element: LightElement): void => {
    if (!scores.has(element)) scores.set(element, (TAG_SCORE[element.tagName] ?? 0) + classWeight(element));
  };
  const give = (from: LightElement, text: number, commas: number): void => {
    const score = 1 + (commas + 1) + Math.min(Math.floor(text / 100), 3);
    let ancestor: LightElement | null = from;
    for (let level = 0; level < 5 && ancestor && ancestor !== body.parent; level += 1) {
      while (ancestor && wrappers.has(ancestor)) ancestor = ancestor.parent;
      if (!ancestor || ancestor === body.parent) break;
      candidate(ancestor);
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, scores.get(ancestor)! + score / divider);
      ancestor = ancestor.parent;
    }
  };
  for (const element of order) {
    const tally = tallies.get(element)!;
    const parent = element.parent;
    if (!parent) continue;
    if (SCORED.has(element.tagName) || (element.tagName === 'DIV' && !tally.hasBlock)) {
      if (tally.text >= MIN_PARAGRAPH) give(parent, tally.text, tally.commas);
    } else if (element.tagName === 'DIV' && trimmed(tally.loose) >= MIN_PARAGRAPH) {
      // The loose text Readability would wrap in a <p> of this <div>.
      give(element, trimmed(tally.loose), tally.looseCommas);
    }
  }

  // Final scores: scaled by the share of text that is not link text.
  const linkDensity = (element: LightElement): number => {
    const tally = tallies.get(element);
    return tally && tally.text > 0 ? tally.links / tally.text : 0;
  };
  const ranked: [LightElement, number][] = [];
  for (const [element, score] of scores) {
    const final = score * (1 - linkDensity(element));
    scores.set(element, final);
    ranked.push([element, final]);
  }
  ranked.sort((a, b) => b[1] - a[1]);
  const top = ranked[0];
  if (!top || top[0] === body) return accept(body, [], doomed, tallies);
  let picked = top[0];
  const topScore = top[1];

  // Near-best candidates that mostly share an ancestor: the ancestor is the content.
  // (Loops into an array literal, not slice/filter/map: the arrays those build changed their
  // elements kind from page to page, and each change threw away this function's optimised code.)
  const alternatives: Set<LightElement>[] = [];
  for (let i = 1; i < ranked.length && i < TOP_CANDIDATES; i += 1) {
    const [element, score] = ranked[i]!;
    if (topScore > 0 && score / topScore >= 0.75) alternatives.push(ancestorsOf(element, body));
  }
  if (alternatives.length >= 3) {
    for (let up = picked.parent; up && up !== body; up = up.parent) {
      let sharing = 0;
      for (const list of alternatives) if (list.has(up)) sharing += 1;
      if (sharing >= 3) {
        picked = up;
        break;
      }
    }
  }
  candidate(picked);
  // Climb while the parent scores well enough; stop at one that scores higher.
  let lastScore = scores.get(picked)!;
  const threshold = lastScore / 3;
  for (let up = picked.parent; up && up !== body; up = up.parent) {
    const score = scores.get(up);
    if (score === undefined) continue;
    if (score < threshold) break;
    if (score > lastScore) {
      picked = up;
      break;
    }
    lastScore = score;
  }
  // A sole child is its parent's content.
  while (picked.parent && picked.parent !== body && children(picked.parent).length === 1)
    picked = picked.parent;
  // Beyond Readability: a documentation page's content is many sections of the same weight, and
  // Readability keeps the one that scores best. A parent whose text beside the pick is prose too
  // (links under a quarter of it, Readability's bound for a prose paragraph) holds the rest of the
  // content, not chrome: the pick grows to it.
  for (let up = picked.parent; up && up !== body; up = up.parent) {
    const whole = tallies.get(up)!;
    const part = tallies.get(picked)!;
    const extra = whole.text - part.text;
    if (extra > 0 && (whole.links - part.links) / extra >= PROSE_LINK_DENSITY) break;
    picked = up;
  }
  candidate(picked);

  const { root, dropped } = keepSiblings(picked, scores, tallies, linkDensity, wrappers, children);
  return accept(root, dropped, doomed, tallies);
}

/**
 * `root` without the `dropped` siblings and the unlikely candidates, when
 * what is left holds enough text; null (and the tree untouched) otherwise.
 */
function accept(
  root: LightElement,
  dropped: LightElement[],
  doomed: LightElement[],
  tallies: Map<LightElement, Tally>,
): LightElement | null {
  let text = tallies.get(root)?.text ?? 0;
  for (const sibling of dropped) text -= tallies.get(sibling)?.text ?? 0;
  if (text < PICKED_MIN_TEXT) return null;
  if (dropped.length > 0) {
    // Loose text beside the siblings goes too (Readability appends elements only).
    for (let node = root.first; node; node = node.next)
      if (node instanceof LightText && node.textContent.trim()) node.textContent = '';
    for (const sibling of dropped) sibling.remove();
  }
  for (const element of doomed) element.remove();
  return root;
}

/** `picked`, or its parent with the siblings Readability would append to it (and those it would not). */
function keepSiblings(
  picked: LightElement,
  scores: Map<LightElement, number>,
  tallies: Map<LightElement, Tally>,
  linkDensity: (element: LightElement) => number,
  wrappers: ReadonlySet<LightElement>,
  children: (element: LightElement) => LightElement[],
): { root: LightElement; dropped: LightElement[] } {
  const parent = picked.parent;
  if (!parent) return { root: picked, dropped: [] };
  const pickedScore = scores.get(picked)!;
  const threshold = Math.max(10, pickedScore * 0.2);
  const pickedClass = picked.getAttribute('class') ?? '';
  const dropped: LightElement[] = [];
  let kept = 0;
  for (const sibling of children(parent)) {
    if (sibling === picked) continue;
    const bonus = pickedClass !== '' && sibling.getAttribute('class') === pickedClass ? pickedScore * 0.2 : 0;
    const score = scores.get(sibling);
    let keep = score !== undefined && score + bonus >= threshold;
    if (!keep && (sibling.tagName === 'P' || wrappers.has(sibling))) {
      const length = tallies.get(sibling)?.text ?? 0;
      const density = linkDensity(sibling);
      keep =
        (length > 80 && density < PROSE_LINK_DENSITY) ||
        (length > 0 && length < 80 && density === 0 && /\.( |$)/.test(sibling.textContent));
    }
    if (keep) kept += 1;
    else dropped.push(sibling);
  }
  return kept === 0 ? { root: picked, dropped: [] } : { root: parent, dropped };
}

function ancestorsOf(element: LightElement, body: LightElement): Set<LightElement> {
  const ancestors = new Set<LightElement>();
  for (let up = element.parent; up && up !== body; up = up.parent) ancestors.add(up);
  return ancestors;
}

/**
 * The content of a page on which no container holds {@link PICKED_MIN_TEXT}
 * characters (the scores mean little there): its only `<article>`, else its
 * whole `<body>`: what the Readability path keeps there too (Readability
 * retries without dropping unlikely candidates, and the converter falls
 * back to the cleaned body). The caller cleans it.
 */
export function shortPageContent(body: LightElement): LightElement {
  return soleArticle(body) ?? body;
}

/** The page's only `<article>` (one inside another counts as part of it). */
function soleArticle(body: ContentElement): LightElement | null {
  let found: LightElement | null = null;
  const stack: LightElement[] = [body as LightElement];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.tagName === 'ARTICLE') {
      if (found) return null;
      found = element;
      continue; // an article inside it is part of it
    }
    if (SKIPPED.has(element.tagName)) continue;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push(child);
  }
  return found;
}
