import { type Context, findCandidates } from './candidates.js';
import { nameTarget, tokenize } from './names.js';
import { type FactNode, isNode, type PageFacts, valuesOf } from './page-facts.js';

const ARTICLE_FAMILY = {
  test: /Article|BlogPosting|Report|Posting$|NewsArticle|Review$/,
  words: ['article', 'post', 'blog', 'news', 'author', 'headline', 'published', 'story', 'byline'],
};

/** Words that point at a kind of schema.org item, by type family. */
const FAMILIES: { test: RegExp; words: string[] }[] = [
  {
    test: /Product|Offer|Vehicle|Book|SoftwareApplication/,
    words: ['product', 'price', 'buy', 'sku', 'brand', 'item', 'shop', 'stock', 'offer'],
  },
  ARTICLE_FAMILY,
  {
    test: /Event$|Festival|Concert/,
    words: [
      'event',
      'concert',
      'conference',
      'ticket',
      'venue',
      'start',
      'performer',
      'festival',
      'show',
      'meetup',
    ],
  },
  { test: /Recipe/, words: ['recipe', 'ingredient', 'cook', 'dish', 'serving', 'prep', 'instruction'] },
  {
    test: /JobPosting/,
    words: ['job', 'salary', 'position', 'role', 'hiring', 'vacancy', 'employment', 'career', 'opening'],
  },
  {
    test: /Organization|Corporation|Business|Store|Restaurant|Company|NGO/,
    words: [
      'company',
      'organization',
      'business',
      'founded',
      'employee',
      'headquarters',
      'contact',
      'founder',
    ],
  },
  { test: /^Person$/, words: ['person', 'bio', 'profile', 'born'] },
];

/** Types that describe the site or page around the content rather than the content itself. */
const PAGE_FURNITURE =
  /^(WebSite|WebPage|BreadcrumbList|SiteNavigationElement|SearchAction|ImageObject|WPHeader|WPFooter|WPSideBar|ListItem|EntryPoint)$/;

function affinity(types: string[], words: Set<string>): number {
  let best = 0;
  for (const family of FAMILIES) {
    if (!types.some((t) => family.test.test(t))) continue;
    const hits = family.words.filter((w) => words.has(w)).length;
    best = Math.max(best, Math.min(hits, 3));
  }
  return best;
}

/** The structured items of a page, with `mainEntity` items of page nodes lifted out. */
function structuredNodes(facts: PageFacts): FactNode[] {
  const nodes: FactNode[] = [];
  for (const node of [...facts.jsonld, ...facts.microdata, ...facts.rdfa]) {
    nodes.push(node);
    for (const key of ['mainEntity', 'mainEntityOfPage', 'about', 'itemReviewed']) {
      for (const v of valuesOf(node, key)) if (isNode(v) && v.entries.length > 2) nodes.push(v);
    }
  }
  return nodes;
}

/** Weight of structured items of the main item's kind besides it, of other items, and of page furniture. */
const SAME_KIND_WEIGHT = 0.9;
const OTHER_ITEM_WEIGHT = 0.7;
const FURNITURE_WEIGHT = 0.5;

/**
 * Orders the page's evidence for matching, each with a weight: the
 * structured item that best fits the schema and query first (most
 * properties named, type family matching the words), then other items of
 * its kind, Readability's reading, the meta tags, the document title, the
 * visible structure, and last the remaining structured items, weighed down
 * (a related product's price is not this page's price).
 */
export function orderContexts(facts: PageFacts, propertyNames: string[], words: string[]): Context[] {
  const wordSet = new Set(words.flatMap(tokenize));
  for (const name of propertyNames) for (const t of tokenize(name)) wordSet.add(t);
  const targets = propertyNames.map((n) => nameTarget(n));
  const scored = structuredNodes(facts).map((node, index) => {
    const whole: Context[] = [{ node, weight: 1 }];
    const named = targets.filter((t) => findCandidates(whole, t, 2).some((c) => c.match >= 0.7)).length;
    const furniture = isFurniture(node);
    const score = named + 2 * affinity(node.types, wordSet) - (furniture ? 3 : 0) - index * 0.001;
    return { node, score, furniture };
  });
  scored.sort((a, b) => b.score - a.score);
  const primary = scored[0] && scored[0].score > 0 ? scored[0].node : undefined;
  const sameKind = primary
    ? scored
        .slice(1)
        .filter((s) => s.score > 0 && s.node.types.some((t) => primary.types.includes(t)))
        .map((s) => s.node)
    : [];
  const rest = scored.filter((s) => s.node !== primary && !sameKind.includes(s.node));
  const pageWide = [facts.meta, facts.document, facts.structure];
  // Readability reads a page as an article: on a page whose main item is something else (a product, an
  // event) its reading only repeats the meta tags, and is left out.
  const otherKind = primary ? isOtherKind(primary) : wordsPointElsewhere(wordSet);
  const reading = facts.readability && !otherKind ? [{ node: facts.readability, weight: 1 }] : [];
  return [
    ...(primary ? [{ node: primary, weight: 1 }] : []),
    ...sameKind.map((node) => ({ node, weight: SAME_KIND_WEIGHT })),
    ...reading,
    ...pageWide.map((node) => ({ node, weight: 1 })),
    ...rest.map((s) => ({ node: s.node, weight: s.furniture ? FURNITURE_WEIGHT : OTHER_ITEM_WEIGHT })),
  ];
}

/** Whether the request's words are about another kind of item than an article ("price", "sku" → a product). */
function wordsPointElsewhere(words: Set<string>): boolean {
  const hits = (family: (typeof FAMILIES)[number]) => family.words.filter((w) => words.has(w)).length;
  const article = hits(ARTICLE_FAMILY);
  return FAMILIES.some((family) => family !== ARTICLE_FAMILY && hits(family) > article);
}

/** Whether an item is of a kind other than an article (a product, an event, a recipe, a job posting, a company…). */
function isOtherKind(node: FactNode): boolean {
  return FAMILIES.some((family) => family !== ARTICLE_FAMILY && node.types.some((t) => family.test.test(t)));
}

function isFurniture(node: FactNode): boolean {
  return node.types.length > 0 && node.types.every((t) => PAGE_FURNITURE.test(t));
}
