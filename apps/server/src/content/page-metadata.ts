import { type ContentDocument, type ContentElement, firstDescendant, tagNameOf } from './light-dom.js';

/** Collapses runs of whitespace to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The URL relative links of the document resolve against: its `<base href>`
 * (itself resolved against the page URL), else the page URL; null when
 * neither is a valid absolute URL.
 */
export function documentBaseUrl(document: ContentDocument, pageUrl: string): URL | null {
  let page: URL | null = null;
  try {
    page = new URL(pageUrl);
  } catch {
    page = null;
  }
  // <base> lives in <head> (parseHtmlDocument moves a stray one there).
  let baseHref: string | undefined;
  for (let child = document.head?.firstElementChild ?? null; child; child = child.nextElementSibling) {
    if (tagNameOf(child) === 'BASE' && child.hasAttribute('href')) {
      baseHref = child.getAttribute('href')?.trim();
      break;
    }
  }
  if (baseHref) {
    try {
      return new URL(baseHref, page ?? undefined);
    } catch {
      // an invalid <base href> is ignored, as browsers do
    }
  }
  return page;
}

/**
 * Resolves an `href` to an absolute http(s) URL without its fragment, or
 * null for other schemes (`javascript:`, `mailto:`, `tel:`, `data:`) and
 * unparsable values.
 */
export function resolveHttpUrl(href: string | null | undefined, base: URL | null): string | null {
  if (href === null || href === undefined) return null;
  const trimmed = href.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base ?? undefined);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

/** What {@link scanPage} learns from the whole page in one walk. */
export interface PageFacts {
  /** `og:title`, else `<title>`, else the first `<h1>`. */
  title: string | null;
  canonicalUrl: string | null;
  /** The text of the page's first non-empty `<h1>`. */
  firstHeading: string | null;
  /** Every `<a href>` (navigation included, `nofollow` too) as absolute http(s) URLs without fragments, deduplicated, in order. */
  links: string[];
  /** h1–h3 text in order, outside nav/footer/aside, exact repeats dropped. */
  headings: string[];
  /** `language-x` classes of code blocks, which content extraction must keep. */
  codeLanguageClasses: string[];
  /** The page's first `<main>` or `role="main"` element: where it says its content is. */
  contentRoot: ContentElement | null;
  /** Elements in the document, and how deep they nest (decide whether Readability is affordable). */
  elementCount: number;
  maxDepth: number;
}

const TEXT_NODE = 3;
/** A fragment the URL parser keeps byte for byte (ASCII, none of the characters it percent-encodes). */
const PLAIN_FRAGMENT = /^#[\w.~:@!$&'()*+,;=/?%-]*$/;
const CHROME = new Set(['NAV', 'FOOTER', 'ASIDE']);
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/;
/** Pygments' wrapper class (Sphinx, MkDocs, Jekyll): `<div class="highlight-python3"><div class="highlight"><pre>`. */
const HIGHLIGHT_CLASS = /(?:^|\s)highlight-([\w+#.-]+)/;
/** Highlight classes that name no language. */
const NO_LANGUAGE = new Set(['default', 'none', 'text']);

/** The language a Pygments wrapper (the `<pre>`'s parent or grandparent) names, if any. */
function highlightLanguage(pre: ContentElement): string | undefined {
  for (let up = pre.parentElement, level = 0; up && level < 2; up = up.parentElement, level += 1) {
    const language = HIGHLIGHT_CLASS.exec(up.getAttribute('class') ?? '')?.[1];
    if (language) return NO_LANGUAGE.has(language) ? undefined : language;
  }
  return undefined;
}

/**
 * The state of one {@link scanPage} walk and the steps it takes per element.
 * A class rather than closures made inside `scanPage`: V8 compiles a hot
 * closure for the closure object it runs as, so a closure made afresh for
 * every page was compiled again on pages that ran it long enough (the Python
 * manual's crawl compiled `visit` 6–11 times); a method is one function.
 */
class PageScan {
  ogTitle: string | null = null;
  titleText: string | null = null;
  firstH1: string | null = null;
  canonicalUrl: string | null = null;
  readonly links = new Set<string>();
  readonly headings: string[] = [];
  readonly seenHeadings = new Set<string>();
  readonly languages = new Set<string>();
  elementCount = 0;
  maxDepth = 0;
  contentRoot: ContentElement | null = null;
  // A documentation page links to itself and a few neighbours hundreds of times (`#anchor`
  // permalinks, `other.html#name`): each target before its fragment is resolved once, and a
  // fragment the URL parser would copy as it is (no character it percent-encodes) is appended.
  readonly resolved = new Map<string, string | null>();

  constructor(readonly base: URL | null) {}

  resolve(value: string): string | null {
    try {
      return new URL(value, this.base ?? undefined).href;
    } catch {
      return null;
    }
  }

  absolute(value: string): string | null {
    const trimmed = value.trim();
    const hashAt = trimmed.indexOf('#');
    const fragment = hashAt >= 0 ? trimmed.slice(hashAt) : '';
    if (hashAt >= 0 && !PLAIN_FRAGMENT.test(fragment)) return this.resolve(trimmed);
    const target = hashAt >= 0 ? trimmed.slice(0, hashAt) : trimmed;
    let page = this.resolved.get(target);
    if (page === undefined) {
      page = this.resolve(target);
      // Resolving '' gives the base without its fragment; a target that kept a '#' is not cached.
      if (page?.includes('#')) page = null;
      this.resolved.set(target, page);
      if (page === null) return this.resolve(trimmed);
    }
    return page === null ? this.resolve(trimmed) : page + fragment;
  }

  /** Returns whether to descend into the element. */
  visit(element: ContentElement, inChrome: boolean): boolean {
    this.elementCount += 1;
    const tag = tagNameOf(element);
    if (this.contentRoot === null && (tag === 'MAIN' || element.getAttribute('role') === 'main'))
      this.contentRoot = element;
    switch (tag) {
      case 'A': {
        const href = element.getAttribute('href');
        if (href === null) break;
        if (/^\s*javascript:/i.test(href)) {
          element.removeAttribute('href');
          break;
        }
        // One parse gives both the absolute href and the link (a '#' is only ever the fragment's).
        const resolved = this.absolute(href);
        if (!resolved) break;
        element.setAttribute('href', resolved);
        if (href.trim() !== '' && /^https?:/.test(resolved)) this.links.add(resolved.split('#', 1)[0]!);
        break;
      }
      case 'IMG': {
        const src = element.getAttribute('src');
        if (src && !/^\s*data:/i.test(src)) {
          const resolved = this.absolute(src);
          if (resolved) element.setAttribute('src', resolved);
        }
        break;
      }
      case 'META': {
        const key = element.getAttribute('property') ?? element.getAttribute('name');
        if (this.ogTitle === null && key?.toLowerCase() === 'og:title') {
          this.ogTitle = collapseWhitespace(element.getAttribute('content') ?? '') || null;
        }
        break;
      }
      case 'TITLE':
        if (this.titleText === null) this.titleText = collapseWhitespace(element.textContent ?? '') || null;
        return false;
      case 'LINK': {
        const rel = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
        if (this.canonicalUrl === null && rel.includes('canonical')) {
          this.canonicalUrl = resolveHttpUrl(element.getAttribute('href'), this.base);
        }
        break;
      }
      case 'H1':
      case 'H2':
      case 'H3': {
        const text = collapseWhitespace(element.textContent ?? '');
        if (tag === 'H1' && this.firstH1 === null && text) this.firstH1 = text;
        if (text && !inChrome && !this.seenHeadings.has(text)) {
          this.seenHeadings.add(text);
          this.headings.push(text);
        }
        break;
      }
      case 'PRE': {
        const code = firstDescendant(element, 'CODE');
        const last = code?.lastChild ?? element.lastChild;
        if (last && last.nodeType === TEXT_NODE && last.textContent) {
          last.textContent = last.textContent.replace(/\s+$/, '');
        }
        const language =
          LANGUAGE_CLASS.exec(element.getAttribute('class') ?? '')?.[1] ?? highlightLanguage(element);
        if (language) {
          this.languages.add(`language-${language}`);
          (code ?? element).classList.add(`language-${language}`);
        }
        break;
      }
      case 'CODE': {
        const language = LANGUAGE_CLASS.exec(element.getAttribute('class') ?? '')?.[1];
        if (language) {
          this.languages.add(`language-${language}`);
          if (!element.classList.contains(`language-${language}`))
            element.classList.add(`language-${language}`);
        }
        break;
      }
      case 'SCRIPT':
      case 'STYLE':
      case 'TEMPLATE':
        return false; // nothing of interest inside
    }
    return true;
  }
}

/**
 * Walks the document once (linkedom's CSS selector engine costs a full
 * walk per query, so one hand-written walk replaces a dozen queries) and
 * both reads the page facts and readies the DOM for content extraction:
 * - link and image URLs become absolute (content cut out of the page keeps
 *   working links); `javascript:` links lose their `href`;
 * - a code block's language goes where the Markdown converter looks for it
 *   (`language-x` on the `<code>`, from `lang-x`/`language-x` on the code
 *   or its `<pre>`), and the trailing newline most sites leave inside
 *   `<pre><code>` is dropped (it would become an empty line in the fence).
 */
export function scanPage(document: ContentDocument, base: URL | null): PageFacts {
  const scan = new PageScan(base);
  // Iterative, in document order: malformed pages can nest deeper than the call stack. Three
  // stacks side by side rather than a tuple (and a list of children) per element.
  const stack: ContentElement[] = [];
  const stackInChrome: boolean[] = [];
  const stackDepth: number[] = [];
  if (document.documentElement) {
    stack.push(document.documentElement);
    stackInChrome.push(false);
    stackDepth.push(1);
  }
  while (stack.length > 0) {
    const element = stack.pop()!;
    const inChrome = stackInChrome.pop()!;
    const depth = stackDepth.pop()!;
    if (depth > scan.maxDepth) scan.maxDepth = depth;
    if (!scan.visit(element, inChrome)) continue;
    const childChrome = inChrome || CHROME.has(tagNameOf(element));
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) {
      stack.push(child);
      stackInChrome.push(childChrome);
      stackDepth.push(depth + 1);
    }
  }

  return {
    title: scan.ogTitle ?? scan.titleText ?? scan.firstH1,
    firstHeading: scan.firstH1,
    canonicalUrl: scan.canonicalUrl,
    links: [...scan.links],
    headings: scan.headings,
    codeLanguageClasses: [...scan.languages],
    contentRoot: scan.contentRoot,
    elementCount: scan.elementCount,
    maxDepth: scan.maxDepth,
  };
}
