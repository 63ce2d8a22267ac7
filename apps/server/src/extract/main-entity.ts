import { findCandidates } from './candidates.js';
import { nameTarget, tokenize } from './names.js';
import { type FactNode, isNode, type PageFacts, valuesOf } from './page-facts.js';

/** Words that point at a kind of schema.org item, by type family. */
const FAMILIES: { test: RegExp; words: string[] }[] = [
  {
    test: /Product|Offer|Vehicle|Book|SoftwareApplication/,
    words: ['product', 'price', 'buy', 'sku', 'brand', 'item', 'shop', 'stock', 'offer'],
  },
  {
    test: /Article|BlogPosting|Report|Posting$|NewsArticle|Review$/,
    words: ['article', 'post', 'blog', 'news', 'author', 'headline', 'published', 'story', 'byline'],
  },
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
  for (const node of [...facts.jsonld, ...facts.microdata]) {
    nodes.push(node);
    for (const key of ['mainEntity', 'mainEntityOfPage', 'about', 'itemReviewed']) {
      for (const v of valuesOf(node, key)) if (isNode(v) && v.entries.length > 2) nodes.push(v);
    }
  }
  return nodes;
}

/**
 * Orders the page's fact nodes for matching: the structured item that best
 * fits the schema and query first (most properties named, type family
 * matching the words), then other items of its kind, the meta tags, the
 * visible structure, and last the remaining structured items.
 */
export function orderContexts(facts: PageFacts, propertyNames: string[], words: string[]): FactNode[] {
  const wordSet = new Set(words.flatMap(tokenize));
  for (const name of propertyNames) for (const t of tokenize(name)) wordSet.add(t);
  const targets = propertyNames.map((n) => nameTarget(n));
  const scored = structuredNodes(facts).map((node, index) => {
    const named = targets.filter((t) => findCandidates([node], t, 2).some((c) => c.score >= 0.7)).length;
    const furniture = node.types.length > 0 && node.types.every((t) => PAGE_FURNITURE.test(t));
    const score = named + 2 * affinity(node.types, wordSet) - (furniture ? 3 : 0) - index * 0.001;
    return { node, score };
  });
  scored.sort((a, b) => b.score - a.score);
  const primary = scored[0] && scored[0].score > 0 ? scored[0].node : undefined;
  const sameKind = primary
    ? scored
        .slice(1)
        .filter((s) => s.score > 0 && s.node.types.some((t) => primary.types.includes(t)))
        .map((s) => s.node)
    : [];
  const rest = scored.map((s) => s.node).filter((n) => n !== primary && !sameKind.includes(n));
  return [...(primary ? [primary] : []), ...sameKind, facts.meta, facts.structure, ...rest];
}
