import type { DomIndex } from './dom-index.js';
import { matchScore, type NameTarget, namesInOwnWords } from './names.js';
import { type FactNode, isNode, newNode } from './page-facts.js';
import { blockText, collapse, tagName } from './text-utils.js';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const HEADINGS_AND_TERMS = new Set([...HEADINGS, 'dt']);
/** Words written before a documented name (`class json.JSONDecoder(…)`, `new Console(…)`, `async def …`). */
const KEYWORD =
  '(?:class|exception|async|await|awaitable|coroutine|static|new|def|function|abstract|final|classmethod|staticmethod|abstractmethod|method|constructor|public|protected|private|virtual|inline)';
/** A dotted, scoped or member name: `fs.readFile`, `std::vector::push_back`, `Array#map`. */
const NAME = '[A-Za-z_$][\\w$]*(?:(?:\\.|::|->|#)[A-Za-z_$~][\\w$]*)*';
/**
 * A call signature as a whole text: keywords, a name, its parameters in
 * parentheses right after it (a space before them makes a heading's
 * remark, "Installation (optional)"), and a return annotation.
 */
const SIGNATURE = new RegExp(
  `^((?:${KEYWORD}\\s+)*)(${NAME})\\((.*)\\)\\s*(?:(?:->|→|:)\\s*[^()]{1,80})?$`,
  'u',
);
/** What is in the parentheses of a manual page's name (`ls(1)`, `printf(3p)`): a section, not parameters. */
const MANUAL_SECTION = /^\d[a-z]*$/i;
/** A heading that names an item by its last word ("Function: xsltApplyStylesheet", "xmlFree ()"). */
const NAMING_HEADING = /([A-Za-z_$][\w$]*)\s*(?:\(\s*\))?$/u;
/**
 * A heading or term labelled with the kind of item it documents: "Class:
 * fs.Dir", "Event: 'close'", "Static method: Buffer.alloc(size)",
 * "Function: xsltFree", "Macro: XSLT_NAMESPACE".
 */
const KIND_LABEL =
  /^(class|interface|exception|event|function|method|static method|constructor|macro|constant|property):\s+(.+)$/iu;
/** What each label documents: the key its items are read under ("events": [{ name, description }]). */
const KINDS = new Map<string, ItemKind>([
  ['class', 'class'],
  ['interface', 'class'],
  ['exception', 'class'],
  ['event', 'event'],
  ['function', 'function'],
  ['method', 'function'],
  ['static method', 'function'],
  ['constructor', 'function'],
  ['macro', 'macro'],
  ['constant', 'constant'],
  ['property', 'property'],
]);
/** A name alone, or quoted as an event's is (`'close'`). */
const BARE_NAME = new RegExp(`^(?:(${NAME})|'([^'\\s]{1,60})'|"([^"\\s]{1,60})")$`, 'u');
/** Longer texts are prose, not a signature. */
const MAX_SIGNATURE = 500;
/** A description is the item's first paragraph. */
const MAX_DESCRIPTION = 1000;

/** What a documented item is: the key it is read under. */
export type ItemKind = 'function' | 'class' | 'event' | 'macro' | 'constant' | 'property';

/** One documented item: what it is and its node (`name`, `signature` when it has one, `description`). */
export interface DocumentedItem {
  kind: ItemKind;
  node: FactNode;
}

/**
 * The items a reference page documents by their call signatures: a heading
 * or a definition term that is one (Node.js's `<h4>fs.readFile(path[,
 * options], callback)</h4>`, Sphinx's `<dt>json.dumps(obj, *, …)</dt>`), a
 * heading that names an item over a code block stating its signature
 * (gtk-doc's "Function: xsltApplyStylesheet" over its C prototype), or a
 * heading labelled with its kind over a name alone (Node.js's "Class:
 * fs.Dir", "Event: 'close'"). Each with its name, its signature on one line
 * and its first paragraph (the paragraphs under the heading, or the term's
 * `<dd>`) as `description`. Headings had been read only as labels of what
 * follows them, so the signature a heading states was read by nothing.
 */
export function readSignatures(index: DomIndex): DocumentedItem[] {
  const items: DocumentedItem[] = [];
  for (const el of index.tags(HEADINGS_AND_TERMS)) {
    // The DOM's own text, not cheerio's: a page has hundreds of headings and terms.
    const text = collapse(blockText(el));
    if (!text || text.length > MAX_SIGNATURE) continue;
    const isTerm = tagName(el) === 'dt';
    const label = text.includes(':') ? KIND_LABEL.exec(text) : null;
    const labelled = label?.[1] ? KINDS.get(label[1].toLowerCase()) : undefined;
    const rest = label?.[2] ?? text;
    const m = rest.includes('(') ? SIGNATURE.exec(rest) : null;
    let name: string | undefined;
    let signature: string | undefined;
    let kind: ItemKind | undefined;
    if (m?.[2] && !MANUAL_SECTION.test(m[3] ?? '')) {
      name = m[2];
      signature = rest;
      kind = labelled ?? (/\b(?:class|exception)\b/.test(m[1] ?? '') ? 'class' : 'function');
    } else if (!isTerm) {
      const code = codeUnder(el);
      const named = code ? NAMING_HEADING.exec(text)?.[1] : undefined;
      if (code && named && new RegExp(`(?:^|[^\\w$])${named.replace(/\$/g, '\\$')}\\s*\\(`, 'u').test(code)) {
        name = named;
        signature = code;
        kind = labelled ?? 'function';
      }
    }
    if (!name && labelled) {
      const bare = BARE_NAME.exec(rest);
      name = bare?.[1] ?? bare?.[2] ?? bare?.[3];
      kind = labelled;
      // A declaration under the heading that names the item is its signature (`#define CHECK_STOPPED`).
      const code = name && !isTerm ? codeUnder(el) : undefined;
      if (name && code && new RegExp(`(?:^|[^\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'u').test(code))
        signature = code;
    }
    if (!name || !kind) continue;
    const node = newNode('structure', 'signature');
    node.entries.push({ key: 'name', value: name });
    if (signature) {
      node.entries.push({ key: 'signature', value: signature });
      for (const parameter of parameterNames(signature, name))
        node.entries.push({ key: 'parameter', value: parameter });
    }
    const description = isTerm ? termDescription(el) : headingDescription(el);
    if (description) node.entries.push({ key: 'description', value: description });
    items.push({ kind, node });
  }
  return items;
}

/** An identifier; a parameter's name is the last one of its declaration (`const char ** params`). */
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
/** Words that are no parameter's name: C's empty list, Python's keyword-only and positional-only marks. */
const NO_PARAMETER = new Set(['void', '']);

/**
 * The names of a signature's parameters, in order: what is in the
 * parentheses after the item's name, split at its top-level commas (not
 * those in a default's parentheses or quotes; Node.js's optional brackets
 * `[, options]` do not nest), each without its default (`=None`), its
 * annotation (`: int`) and its type before it (`xmlDocPtr doc`).
 */
export function parameterNames(signature: string, name: string): string[] {
  const open = signature.indexOf('(', Math.max(0, signature.indexOf(name) + name.length));
  if (open < 0) return [];
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of signature.slice(open + 1)) {
    if (quote) {
      if (ch === quote) quote = '';
      current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '{') depth++;
    else if (ch === ')' || ch === '}') {
      if (depth === 0) break;
      depth--;
    } else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  const names: string[] = [];
  for (const part of parts) {
    const declared = part.replace(/[[\]]/g, ' ').split('=')[0]?.split(':')[0] ?? '';
    const last = declared.match(IDENTIFIER)?.at(-1) ?? '';
    if (!NO_PARAMETER.has(last)) names.push(last);
  }
  return names;
}

type Walkable = { next?: unknown; children?: unknown[] };

/** The next element after a node among its siblings (text between them skipped). */
function nextElement(node: unknown): unknown {
  let n = (node as Walkable).next;
  while (n && !tagName(n)) n = (n as Walkable).next;
  return n;
}

/** The element children of a node. */
function elementChildren(node: unknown): unknown[] {
  return ((node as Walkable).children ?? []).filter((c) => tagName(c) !== '');
}

/** The code block right after a heading (a `<pre>`, or a wrapper holding only one), on one line. */
function codeUnder(heading: unknown): string | undefined {
  const next = nextElement(heading);
  if (!next) return undefined;
  const pres = tagName(next) === 'pre' ? [next] : elementChildren(next).filter((c) => tagName(c) === 'pre');
  if (pres.length !== 1) return undefined;
  const code = collapse(blockText(pres[0]));
  return code && code.length <= MAX_SIGNATURE && code === collapse(blockText(next)) ? code : undefined;
}

/** A term's first paragraph: the first `<p>` of its `<dd>`, or the `<dd>`'s text when it has no paragraphs. */
function termDescription(term: unknown): string | undefined {
  let dd = nextElement(term);
  while (dd && tagName(dd) === 'dt') dd = nextElement(dd);
  if (!dd || tagName(dd) !== 'dd') return undefined;
  const p = elementChildren(dd).find((c) => tagName(c) === 'p');
  const text = collapse(blockText(p ?? dd));
  return text && text.length <= MAX_DESCRIPTION ? text : undefined;
}

/** A heading's first paragraph: the first `<p>` among what follows it up to the next heading. */
function headingDescription(heading: unknown): string | undefined {
  for (let el = nextElement(heading); el; el = nextElement(el)) {
    const tag = tagName(el);
    if (HEADINGS.has(tag)) return undefined;
    if (tag !== 'p') continue;
    const text = collapse(blockText(el));
    if (text) return text.length <= MAX_DESCRIPTION ? text : undefined;
  }
  return undefined;
}

/**
 * Whether a documented item states a property itself: one of its keys names
 * it (`arguments` its `parameter`s, `summary` its `description`), its `name`
 * only in the property's own words (a title or a heading is the page's).
 */
export function statesItself(item: FactNode, target: NameTarget): boolean {
  return item.entries.some((e) =>
    e.key === 'name' ? namesInOwnWords(target, e.key) : matchScore(target, [e.key]) >= SYNONYM_MATCH,
  );
}

/** A key that names a property at least this well names it or a synonym of it (`names.ts`). */
const SYNONYM_MATCH = 0.9;

/** Characters that continue a name: a name in a query starts and ends between others. */
const NAME_CHAR = /[\w$.]/;

/** A name written as code: dotted or scoped, with an underscore, a digit or a capital inside (`readFile`). */
const CODE_LIKE = /[.$#_:\d]|->|\p{Ll}\p{Lu}/u;

/**
 * The documented item a query names, when it names one: its full name
 * (`fs.readFile`) or its last part (`readFile`), as a whole word, the full
 * name and the longer name first. A query about one item ("the signature
 * of fs.readFile") is answered from that item. A plain word is a word, not
 * a name ("close the file" is not about the `close` event or `dir.close`),
 * unless the query calls it (`close()`).
 */
export function itemNamedBy(structure: FactNode, query: string | undefined): FactNode | undefined {
  if (!query) return undefined;
  const text = query.toLowerCase();
  let best: { node: FactNode; score: number } | undefined;
  for (const entry of structure.entries) {
    if (entry.evidence !== 'signature' || !isNode(entry.value)) continue;
    const name = entry.value.entries.find((e) => e.key === 'name')?.value;
    if (typeof name !== 'string') continue;
    const lastPart = name.split(/\.|::|->|#/).at(-1) ?? name;
    const score = namesWord(text, name)
      ? 2 * name.length
      : lastPart !== name && namesWord(text, lastPart)
        ? lastPart.length
        : 0;
    if (score > 0 && (!best || score > best.score)) best = { node: entry.value, score };
  }
  return best?.node;
}

/** Whether the lower-cased `text` names `name` as a whole word, written as code or called. */
function namesWord(text: string, name: string): boolean {
  const word = name.toLowerCase();
  const codeLike = CODE_LIKE.test(name);
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    // A trailing full stop ends a sentence, it does not continue the name.
    const continues =
      after !== undefined &&
      NAME_CHAR.test(after) &&
      !(after === '.' && !/\w/.test(text[at + word.length + 1] ?? ''));
    if ((before !== undefined && NAME_CHAR.test(before)) || continues) continue;
    if (codeLike || after === '(') return true;
  }
  return false;
}
