import type { NameTarget } from './names.js';
import { collapse } from './text-utils.js';

/**
 * What a text property means, read from its name: a person (an author), the
 * author line as printed (a byline: "By Jane Doe"), a site's name, a
 * headline, or any other text. Each meaning has rules for what a value must
 * look like; a value that does not is not an answer (`fitMeaning`).
 */
export type TextMeaning = 'person' | 'byline' | 'site' | 'headline' | 'text';

/** The meaning of a property from its name's concepts (`author` → person, `byline` → byline, `siteName` → site). */
export function meaningOf(target: NameTarget): TextMeaning {
  if (target.concepts.has('author'))
    return target.tokens.some((t) => t === 'byline' || t === 'line') ? 'byline' : 'person';
  if (target.concepts.has('siteName')) return 'site';
  if (
    target.concepts.has('name') &&
    target.tokens.some((t) => t === 'title' || t === 'headline' || t === 'heading')
  )
    return 'headline';
  return 'text';
}

/** "By", "Written by", "Posted by", "von", "par", "por", "door", "av" before a name. */
const BY_PREFIX =
  /^(?:(?:written|posted|words|reported|story|text)\s+)?(?:by|von|par|por|door|av)\s*[:\-–]?\s+/iu;
/** Words that are labels or links around a byline, not a name. */
const LABELS = new Set([
  'author',
  'authors',
  'by',
  'byline',
  'admin',
  'administrator',
  'unknown',
  'anonymous',
  'guest',
  'archive',
  'archives',
  'profile',
  'posts',
  'all posts',
  'comments',
  'share',
  'name',
  'home',
  'menu',
  'follow',
  'follow author',
  'more',
  'about the author',
  'about',
  'contact',
]);
/** A label or a call to action: "Follow Author", "View profile", "More from Jane", "Read more". */
const ACTION =
  /^(?:follow|view|see|read|more|all|contact|about|share|subscribe|sign|log|email|send|posted in|filed under)\b/i;
const URL_LIKE = /^(?:[a-z][\w+.-]*:)?\/\/|^www\.|\bhttps?:\/\/|\.(?:com|org|net|io|co|de|fr|uk)\/\S/i;
const EMAIL = /[\w.+-]+@[\w-]+\.[\w.-]+/;
const HANDLE = /^@[\w.]+$/;

/** The text without a leading "By …". */
export function withoutByPrefix(text: string): string {
  return text.replace(BY_PREFIX, '').trim();
}

/**
 * Whether a text can be a person's (or a byline's) name: letters, no URL,
 * e-mail address or @handle, no digits (a date or a count is not a name),
 * not a label or link text ("Archive", "Follow Author"), a capital letter
 * in scripts that have them, at most 100 characters and 12 words.
 */
export function isPersonName(text: string): boolean {
  const name = withoutByPrefix(text);
  if (!/\p{L}/u.test(name) || /\d/.test(name)) return false;
  if (URL_LIKE.test(name) || EMAIL.test(name) || HANDLE.test(name)) return false;
  const plain = name
    .toLowerCase()
    .replace(/[^\p{L}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!plain || LABELS.has(plain) || ACTION.test(plain)) return false;
  // In scripts with capitals, a name has one ("mcupdate" is a username).
  if (/[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u.test(name) && !/\p{Lu}/u.test(name))
    return false;
  return name.length <= 100 && name.split(/\s+/).length <= 12;
}

/** Whether a text can be a site's name: letters, not a URL with a path, at most 80 characters and 10 words. */
export function isSiteName(text: string): boolean {
  if (!/\p{L}/u.test(text)) return false;
  if (/^[a-z][\w+.-]*:\/\//i.test(text) || /\/\S/.test(text)) return false;
  return text.length <= 80 && text.split(/\s+/).length <= 10;
}

/**
 * The value a text gives a property of this meaning, or undefined when it
 * is not one: whitespace collapsed; a person's name without "By"; a byline
 * as printed, but only when it names someone; a site name that is a name,
 * not an address; a headline of at most 400 characters.
 */
export function fitMeaning(text: string, meaning: TextMeaning): string | undefined {
  const value = collapse(text);
  if (!value) return undefined;
  switch (meaning) {
    case 'person':
      return isPersonName(value) ? withoutByPrefix(value) : undefined;
    case 'byline':
      return isPersonName(value) ? value : undefined;
    case 'site':
      return isSiteName(value) ? value : undefined;
    case 'headline':
      return /[\p{L}\p{N}]/u.test(value) && value.length <= 400 ? value : undefined;
    default:
      return value;
  }
}

/**
 * The form two findings of a value are compared in: case and spacing
 * ignored, a leading "By" ignored for people, trailing punctuation ignored.
 * Findings with the same form support each other.
 */
export function comparisonForm(value: unknown, meaning: TextMeaning): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  let text = collapse(value).toLowerCase();
  if (meaning === 'person' || meaning === 'byline') text = withoutByPrefix(text);
  return text.replace(/[\s.,;:!|–—-]+$/u, '');
}
