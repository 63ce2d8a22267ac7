/**
 * Name matching: schema property names, descriptions and query words against
 * the keys found on a page (`datePublished`, `og:title`, "Price", `offers.price`).
 * Names are split into normalised tokens (camelCase and snake_case split,
 * lower case, singular); synonyms are grouped into concepts.
 */

const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'for',
  'to',
  'is',
  'are',
  'its',
  'it',
  'this',
  'that',
  'with',
  'at',
  'on',
  'in',
  'as',
  'from',
  'page',
  'please',
  'extract',
  'get',
  'find',
  'what',
  'which',
  'each',
  'all',
  'any',
  'some',
  'their',
  'there',
  'be',
  'if',
]);

/** Splits a key or phrase into normalised tokens: `datePublished` → `date published`, `og:image_url` → `og image url`. */
export function tokenize(name: string): string[] {
  const cached = TOKEN_CACHE.get(name);
  if (cached) return cached;
  const tokens = tokenizeUncached(name);
  if (TOKEN_CACHE.size > 20_000) TOKEN_CACHE.clear();
  TOKEN_CACHE.set(name, tokens);
  return tokens;
}

/** Names repeat across pages (`name`, `offers`, `og:title`): tokenising each once saves most of the matching time. */
const TOKEN_CACHE = new Map<string, string[]>();

function tokenizeUncached(name: string): string[] {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  const tokens: string[] = [];
  for (const raw of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOP_WORDS.has(raw)) continue;
    tokens.push(singular(raw));
  }
  return tokens;
}

/** A crude English singular: `ingredients` → `ingredient`, `categories` → `category`, `addresses` → `address`. */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses') || word.endsWith('xes') || word.endsWith('ches') || word.endsWith('shes'))
    return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is|os)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The normalised phrase of a name: its tokens joined by a space. */
export function phraseOf(name: string): string {
  return tokenize(name).join(' ');
}

/**
 * Synonym groups. Each concept lists the phrases (written as they would be
 * tokenised) that name it on pages, in schema.org, OpenGraph or in schemas.
 * A phrase may belong to several concepts ("date" is both a publication date
 * and an event's start).
 */
const CONCEPTS: Record<string, string[]> = {
  name: [
    'name',
    'title',
    'headline',
    'heading',
    'product name',
    'product title',
    'job title',
    'event name',
    'recipe name',
    'position title',
    'position',
    'role',
  ],
  description: [
    'description',
    'summary',
    'abstract',
    'about',
    'overview',
    'intro',
    'excerpt',
    'teaser',
    'lede',
    'standfirst',
    'blurb',
    'synopsis',
  ],
  price: [
    'price',
    'cost',
    'amount',
    'price amount',
    'sale price',
    'current price',
    'our price',
    'offer price',
    'low price',
    'ticket price',
    'fee',
    'admission',
    'price value',
    'now',
  ],
  currency: ['currency', 'price currency', 'currency code', 'price currency code'],
  author: [
    'author',
    'reviewer',
    'reviewed by',
    'creator',
    'byline',
    'writer',
    'written by',
    'by',
    'posted by',
    'contributor',
    'journalist',
    'author name',
  ],
  published: [
    'date published',
    'published',
    'published time',
    'publish date',
    'publication date',
    'posted',
    'date posted',
    'posted on',
    'published on',
    'release date',
    'date created',
    'created',
    'pub date',
    'issued',
    'date',
    'upload date',
    'published date',
  ],
  modified: [
    'date modified',
    'modified time',
    'updated',
    'last updated',
    'modified',
    'updated time',
    'modified date',
    'updated on',
  ],
  start: [
    'start date',
    'start',
    'start time',
    'begin',
    'begins',
    'starts',
    'event date',
    'date',
    'when',
    'date time',
    'doors',
    'opens',
    'starting',
  ],
  end: ['end date', 'end', 'end time', 'ends', 'until', 'finish', 'closes'],
  company: [
    'company',
    'organization',
    'organisation',
    'hiring organization',
    'employer',
    'business',
    'firm',
    'company name',
    'org',
    'hiring company',
    'organization name',
  ],
  brand: ['brand', 'manufacturer', 'make', 'maker', 'vendor', 'brand name'],
  publisher: ['publisher', 'publication', 'source', 'outlet', 'newspaper', 'publishing house'],
  siteName: ['site name', 'site', 'website name', 'site title', 'application name', 'web site name'],
  location: [
    'location',
    'address',
    'place',
    'venue',
    'job location',
    'where',
    'located',
    'location name',
    'venue name',
    'office',
    'workplace',
  ],
  image: [
    'image',
    'thumbnail',
    'thumbnail url',
    'photo',
    'picture',
    'img',
    'cover',
    'cover image',
    'hero image',
    'main image',
    'image url',
    'photo url',
    'image src',
  ],
  logo: ['logo', 'logo url'],
  url: ['url', 'link', 'canonical', 'href', 'permalink', 'web page', 'page url', 'canonical url'],
  website: ['website', 'homepage', 'web site', 'site url', 'url'],
  sku: [
    'sku',
    'product id',
    'item number',
    'model number',
    'mpn',
    'part number',
    'article number',
    'product code',
    'item code',
    'model',
    'product number',
    'style number',
  ],
  rating: [
    'rating',
    'rating value',
    'average rating',
    'score',
    'star',
    'star rating',
    'aggregate rating',
    'review score',
    'average score',
    'customer rating',
  ],
  reviews: [
    'review count',
    'rating count',
    'review',
    'number review',
    'rating total',
    'review total',
    'vote',
    'ratings count',
    'count',
  ],
  availability: [
    'availability',
    'in stock',
    'stock',
    'available',
    'stock status',
    'inventory',
    'is available',
    'instock',
  ],
  ingredients: [
    'ingredient',
    'recipe ingredient',
    'ingredients list',
    'you need',
    'you will need',
    'shopping list',
  ],
  instructions: [
    'instruction',
    'recipe instruction',
    'step',
    'method',
    'direction',
    'preparation',
    'how make',
  ],
  // What a documented function takes (`read-signatures.ts` reads them as `parameter`).
  parameter: ['parameter', 'param', 'argument', 'arg'],
  // What it returns (`returns`: its type and description; a type-asking property gets the type).
  returns: ['return', 'return value', 'returned value', 'return type', 'rtype', 'result type'],
  servings: ['serving', 'recipe yield', 'yield', 'serve', 'portion', 'make'],
  prep: ['prep time', 'preparation time', 'prep'],
  cook: ['cook time', 'cooking time', 'bake time', 'baking time', 'cook', 'bake'],
  total: ['total time', 'ready in', 'total'],
  calories: ['calorie', 'nutrition calorie', 'energy', 'kcal', 'calories per serving'],
  cuisine: ['cuisine', 'recipe cuisine', 'serve cuisine', 'food'],
  category: [
    'category',
    'recipe category',
    'article section',
    'section',
    'genre',
    'department',
    'categories',
  ],
  salary: [
    'salary',
    'base salary',
    'compensation',
    'pay',
    'wage',
    'salary range',
    'pay range',
    'remuneration',
  ],
  salaryMin: [
    'min salary',
    'salary min',
    'minimum salary',
    'min value',
    'salary from',
    'minimum',
    'min',
    'low',
    'lowest',
  ],
  salaryMax: [
    'max salary',
    'salary max',
    'maximum salary',
    'max value',
    'salary to',
    'maximum',
    'max',
    'high',
    'highest',
  ],
  employmentType: [
    'employment type',
    'job type',
    'contract type',
    'type',
    'work type',
    'contract',
    'hour',
    'schedule',
    'employment',
  ],
  email: ['email', 'e mail', 'mail', 'contact email', 'email address'],
  phone: ['telephone', 'phone', 'tel', 'phone number', 'contact phone', 'mobile', 'call', 'telephone number'],
  founded: [
    'founding date',
    'founded',
    'established',
    'since',
    'year founded',
    'founding year',
    'inception',
    'founded year',
    'est',
  ],
  employees: [
    'number employee',
    'employee',
    'staff',
    'headcount',
    'team size',
    'size',
    'people',
    'workforce',
    'employee count',
    'number of employee',
  ],
  keywords: ['keyword', 'tag', 'topic', 'subject', 'label'],
  wordCount: ['word count', 'word', 'length'],
  organizer: ['organizer', 'organiser', 'host', 'hosted by', 'presented by', 'promoter', 'organized by'],
  performer: ['performer', 'artist', 'speaker', 'band', 'lineup', 'featuring', 'act', 'headliner'],
  headquarters: ['headquarters', 'hq', 'head office', 'based in', 'headquartered', 'address'],
  founder: ['founder', 'founded by', 'co founder', 'founders'],
  deadline: [
    'valid through',
    'application deadline',
    'deadline',
    'apply by',
    'closing date',
    'expires',
    'closes',
  ],
  remote: ['remote', 'job location type', 'work from home', 'telecommute', 'remote work', 'remote ok'],
  experience: [
    'experience',
    'experience requirement',
    'years experience',
    'required experience',
    'seniority',
    'experience level',
  ],
  skills: [
    'skill',
    'requirement',
    'qualification',
    'required skill',
    'must have',
    'looking',
    'you bring',
    'about you',
    'you have',
  ],
  duration: ['duration', 'runtime', 'running time', 'length'],
  language: ['language', 'in language', 'lang', 'locale'],
  country: ['country', 'address country', 'nation', 'applicant location requirement', 'eligible country'],
  city: ['city', 'address locality', 'locality', 'town'],
  street: ['street address', 'street', 'address line', 'address line 1'],
  postal: ['postal code', 'zip', 'zip code', 'postcode', 'post code'],
  region: ['address region', 'region', 'state', 'province', 'county'],
  weight: ['weight', 'mass', 'net weight'],
  color: ['color', 'colour', 'finish'],
  condition: ['item condition', 'condition'],
  industry: ['industry', 'sector', 'field', 'market'],
  eventStatus: ['event status', 'status'],
  period: ['period', 'unit text', 'unit', 'pay period', 'frequency', 'interval', 'per'],
  reviewed: ['item reviewed', 'product', 'reviewed item', 'product reviewed'],
  pros: ['pro', 'pros', 'positive note', 'advantage', 'what we like', 'like', 'strength', 'plus'],
  cons: ['con', 'cons', 'negative note', 'disadvantage', 'what we dislike', 'dislike', 'weakness', 'minus'],
  offers: ['offer', 'variant', 'option', 'deal', 'listing', 'ticket', 'ticket option'],
  attendance: ['event attendance mode', 'attendance mode', 'format', 'attendance'],
};

const CONCEPTS_BY_PHRASE = new Map<string, Set<string>>();
for (const [concept, phrases] of Object.entries(CONCEPTS)) {
  for (const phrase of phrases) {
    const normal = phraseOf(phrase);
    const set = CONCEPTS_BY_PHRASE.get(normal) ?? new Set<string>();
    set.add(concept);
    CONCEPTS_BY_PHRASE.set(normal, set);
  }
}

/**
 * Concepts that often name the same thing without meaning it: a publisher
 * is usually the site's owner, not always its name. A key of one answers the
 * other at {@link RELATED_MATCH}, which alone stays under the confidence floor.
 */
const RELATED: [string, string][] = [['siteName', 'publisher']];
const RELATED_MATCH = 0.7;

function related(a: Set<string>, b: Set<string>): boolean {
  return RELATED.some(([x, y]) => (a.has(x) && b.has(y)) || (a.has(y) && b.has(x)));
}

/** The concepts a phrase names directly (`offer price` → none, `price` → price). */
export function conceptsOf(phrase: string): Set<string> {
  return CONCEPTS_BY_PHRASE.get(phrase) ?? new Set();
}

/** What a schema property is looking for, precomputed once per property. */
export interface NameTarget {
  name: string;
  tokens: string[];
  phrase: string;
  concepts: Set<string>;
  /** Concepts of the name's single tokens (`ticketPrice` → price). */
  tokenConcepts: Set<string>;
  descriptionTokens: Set<string>;
  descriptionConcepts: Set<string>;
}

/** Prepares a property name (and its description) for matching. */
export function nameTarget(name: string, description?: string): NameTarget {
  const tokens = tokenize(name);
  const phrase = tokens.join(' ');
  // Generic words ("name" in siteName, "date" in eventDate) say nothing on their own: their concepts are left out.
  const tokenConcepts = new Set<string>();
  for (const t of tokens) if (!GENERIC_LEAVES.has(t)) for (const c of conceptsOf(t)) tokenConcepts.add(c);
  const descriptionTokens = new Set(description ? tokenize(description) : []);
  const descriptionConcepts = new Set<string>();
  if (description) {
    const words = [...descriptionTokens];
    for (let i = 0; i < words.length; i++) {
      if (!GENERIC_LEAVES.has(words[i] ?? ''))
        for (const c of conceptsOf(words[i] ?? '')) descriptionConcepts.add(c);
      if (i + 1 < words.length)
        for (const c of conceptsOf(`${words[i]} ${words[i + 1]}`)) descriptionConcepts.add(c);
    }
  }
  return {
    name,
    tokens,
    phrase,
    concepts: conceptsOf(phrase),
    tokenConcepts,
    descriptionTokens,
    descriptionConcepts,
  };
}

function intersects(a: Set<string>, b: Set<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

function subset(a: string[], b: string[]): boolean {
  return a.length > 0 && a.every((t) => b.includes(t));
}

/**
 * How well a key path on the page (`['offers', 'price']`) names what a target
 * looks for, from 0 (unrelated) to 1 (same name). Exact names beat synonyms,
 * synonyms beat partial overlaps; every level of nesting costs a little.
 */
export function matchScore(target: NameTarget, path: string[]): number {
  const leaf = path[path.length - 1] ?? '';
  // `author.name`, `brand.name`, `price.value`: a generic key says what its parent names.
  if (path.length > 1 && NAMING_LEAVES.has(leaf))
    return Math.max(0, matchScore(target, path.slice(0, -1)) - 0.02);
  const leafTokens = tokenize(leaf);
  const leafPhrase = leafTokens.join(' ');
  if (leafTokens.length === 0 || target.tokens.length === 0) return 0;
  const depthPenalty = 0.04 * (path.length - 1);
  const leafConcepts = conceptsOf(leafPhrase);
  let score = 0;
  if (leafPhrase === target.phrase) score = 1;
  else if (leafTokens.length === target.tokens.length && subset(leafTokens, target.tokens)) score = 0.95;
  else if (intersects(leafConcepts, target.concepts)) score = 0.9;
  else if (related(leafConcepts, target.concepts)) score = RELATED_MATCH;
  else if (sameSpecificWords(target.tokens, leafTokens)) score = SPECIFIC_MATCH;
  else {
    const pathTokens = path.flatMap(tokenize);
    const pathConcepts = conceptsOf(pathTokens.join(' '));
    if (path.length > 1 && intersects(pathConcepts, target.concepts)) score = 0.85;
    else if (path.length > 1 && subset(target.tokens, pathTokens)) score = 0.8;
    else if (tokenwiseSynonyms(target.tokens, leafTokens)) score = 0.82;
    else if (subset(target.tokens, leafTokens)) score = 0.72;
    else if (subset(leafTokens, target.tokens) && !GENERIC_LEAVES.has(leafPhrase)) score = 0.7;
    else if (intersects(leafConcepts, target.tokenConcepts) && target.tokens.length > 1) score = 0.68;
    else if (subset(leafTokens, [...target.descriptionTokens]) && !GENERIC_LEAVES.has(leafPhrase))
      score = 0.6 + 0.04 * Math.min(leafTokens.length, 3);
    else if (intersects(leafConcepts, target.descriptionConcepts)) score = 0.62;
    else if (leafTokens.length <= 4 && leafTokens.some((t) => intersects(conceptsOf(t), target.concepts)))
      score = 0.61;
    if (score > 0 && score < 0.8 && intersects(leafConcepts, target.descriptionConcepts)) score += 0.05;
  }
  if (score === 0) return 0;
  return Math.max(0, score - depthPenalty);
}

/**
 * The key says what the target says in the target's own words, in any order
 * (`synopsis` for synopsis, `datePublished` for published date), not by a
 * synonym (`summary` for synopsis) or a part of them.
 */
export function namesInOwnWords(target: NameTarget, key: string): boolean {
  const tokens = tokenize(key);
  return (
    tokens.length === target.tokens.length && subset(tokens, target.tokens) && subset(target.tokens, tokens)
  );
}

/** Every token of each side equals, or shares a concept with, a token of the other (`highestPrice` ~ `highPrice`). */
function tokenwiseSynonyms(a: string[], b: string[]): boolean {
  const close = (x: string, ys: string[]) =>
    ys.some((y) => y === x || intersects(conceptsOf(x), conceptsOf(y)));
  return a.length > 1 && b.length > 1 && a.every((x) => close(x, b)) && b.every((y) => close(y, a));
}

/** Keys too general to stand for a longer name they are part of (`name` is not `site name`). */
const GENERIC_LEAVES = new Set([
  'name',
  'value',
  'text',
  'type',
  'url',
  'id',
  'date',
  'time',
  'title',
  'count',
  'number',
]);

/** Units written into property names (`weightKg`, `warrantyYears`, `capacityMW`): they say how, not what. */
const UNIT_WORDS = new Set([
  'kg',
  'g',
  'lb',
  'oz',
  'cm',
  'mm',
  'm',
  'km',
  'in',
  'ft',
  'mi',
  'year',
  'month',
  'week',
  'day',
  'hour',
  'minute',
  'min',
  'second',
  'sec',
  'ms',
  'usd',
  'eur',
  'gbp',
  'percent',
  'pct',
  'mw',
  'kw',
  'w',
  'kwh',
  'gb',
  'mb',
  'kb',
  'l',
  'ml',
]);
/** A key that names the specific part of a property's name (`contact` for `contactName`, `weight` for `weightKg`). */
const SPECIFIC_MATCH = 0.88;

function specificWords(tokens: string[]): string[] {
  return tokens.filter((t) => !GENERIC_LEAVES.has(t) && !UNIT_WORDS.has(t));
}

/** The two names are the same once generic words and units are left out, and something was left out. */
function sameSpecificWords(target: string[], leaf: string[]): boolean {
  const a = specificWords(target);
  const b = specificWords(leaf);
  if (a.length === 0 || a.length !== b.length || (a.length === target.length && b.length === leaf.length))
    return false;
  return a.every((t, i) => t === b[i]);
}

/** Keys that, under another key, stand for it: `author.name` is the author. */
const NAMING_LEAVES = new Set(['name', 'value', 'text', '@value']);

/** The lowest score at which a key is taken to name a property. */
export const MATCH_THRESHOLD = 0.6;
/** Scores at or above this are trusted in source order; weaker ones compete on score. */
export const STRONG_MATCH = 0.85;
