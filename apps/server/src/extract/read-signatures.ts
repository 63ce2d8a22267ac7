import type { DomIndex } from './dom-index.js';
import { matchScore, type NameTarget, namesInOwnWords } from './names.js';
import { type FactEntry, type FactNode, isNode, newNode } from './page-facts.js';
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
  `^((?:${KEYWORD}\\s+)*)(${NAME})\\((.*)\\)\\s*(?:(?:->|→|:)\\s*([^()]{1,80}))?$`,
  'u',
);
/** A C declaration: its return type, its name, its parameters in parentheses (a space before them allowed). */
const C_DECLARATION = new RegExp(
  `^((?:[A-Za-z_][\\w:<>,]*\\s*[*&]*\\s+)+?)\\**(${NAME})\\s*\\((.*)\\)\\s*;?$`,
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
/** A class declared by its keyword over a name alone (Sphinx's `class sqlite3.Connection`, `exception json.JSONDecodeError`). */
const CLASS_TERM = new RegExp(`^(?:class|exception|interface|struct|enum)\\s+(${NAME})$`, 'u');
/** A name alone, or quoted as an event's is (`'close'`). */
const BARE_NAME = new RegExp(`^(?:(${NAME})|'([^'\\s]{1,60})'|"([^"\\s]{1,60})")$`, 'u');
/** Longer texts are prose, not a signature. */
const MAX_SIGNATURE = 500;
/** A description is the item's first paragraph. */
const MAX_DESCRIPTION = 1000;
/** How many elements after a heading are read as what documents its item. */
const MAX_BODY = 60;

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
  const found: Found[] = [];
  const headings: unknown[] = [];
  for (const el of index.tags(HEADINGS_AND_TERMS)) {
    if (tagName(el) !== 'dt') headings.push(el);
    // The DOM's own text, not cheerio's: a page has hundreds of headings and terms.
    const text = collapse(blockText(el));
    if (!text || text.length > MAX_SIGNATURE) continue;
    const isTerm = tagName(el) === 'dt';
    const label = text.includes(':') ? KIND_LABEL.exec(text) : null;
    const labelled = label?.[1] ? KINDS.get(label[1].toLowerCase()) : undefined;
    const rest = label?.[2] ?? text;
    const m = rest.includes('(') ? SIGNATURE.exec(rest) : null;
    // Texinfo's "Function: ffi_status ffi_prep_cif (ffi_cif *cif, …)": a labelled C declaration, its type first.
    const declaration = !m && labelled && rest.includes('(') ? C_DECLARATION.exec(rest) : null;
    let name: string | undefined;
    let signature: string | undefined;
    let kind: ItemKind | undefined;
    /** What the signature says the item returns: a return annotation (`→ float`), a C type before its name. */
    let returnType: string | undefined;
    if (m?.[2] && !MANUAL_SECTION.test(m[3] ?? '')) {
      name = m[2];
      signature = rest;
      kind = labelled ?? (/\b(?:class|exception)\b/.test(m[1] ?? '') ? 'class' : 'function');
      returnType = m[4]?.trim();
    } else if (declaration?.[2] && labelled) {
      name = declaration[2];
      signature = rest;
      kind = labelled;
      // Everything before the name: a pointer's `*` written against the name is the type's (`void *ffi_closure_alloc`).
      const typeEnd = declaration[1]?.length ?? 0;
      returnType = typeBefore(
        `${rest.slice(0, typeEnd).trimEnd()} ${rest.slice(typeEnd, rest.indexOf(name, typeEnd))}${name}(`,
      );
    } else if (!isTerm) {
      const code = codeUnder(el);
      const named = code ? NAMING_HEADING.exec(text)?.[1] : undefined;
      const call = named
        ? new RegExp(`(?:^|[^\\w$])${named.replace(/\$/g, '\\$')}\\s*\\(`, 'u').exec(code ?? '')
        : null;
      if (code && named && call) {
        name = named;
        signature = code;
        kind = labelled ?? 'function';
        returnType = typeBefore(code.slice(0, call.index + 1));
      }
    }
    const declaredClass = !name && !labelled ? CLASS_TERM.exec(rest) : null;
    if (declaredClass?.[1]) {
      // Sphinx's `class sqlite3.Connection`: a class without parameters.
      name = declaredClass[1];
      kind = 'class';
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
    found.push({ el, isTerm, kind, name, signature, returnType, node: newNode('structure', 'signature') });
  }
  const itemElements = new Set(found.map((f) => f.el));
  for (const f of found) {
    const { node, name, signature } = f;
    node.entries.push({ key: 'name', value: name });
    const declared = signature ? parameterDeclarations(signature, name) : [];
    const details = readDetails(
      bodyOf(f),
      declared.map((d) => d.name),
      itemElements,
    );
    if (signature) {
      node.entries.push({ key: 'signature', value: signature });
      for (const d of declared) {
        const stated = details.parameters.get(d.name);
        const type = stated?.type ?? d.type;
        const entry = part('parameter', { name: d.name, type, description: stated?.description });
        // An object's nested list is its properties (Node.js's `options`), a function's its arguments.
        const key = type && /\b(?:object|dict|options)\b/iu.test(type) ? 'property' : 'parameter';
        for (const n of stated?.nested ?? []) (entry.value as FactNode).entries.push(part(key, n));
        node.entries.push(entry);
      }
    }
    const description = f.isTerm ? termDescription(f.el) : headingDescription(f.el);
    if (description) node.entries.push({ key: 'description', value: description });
    const returns = {
      type: details.returns.type ?? (f.kind === 'function' ? f.returnType : undefined),
      description: details.returns.description,
    };
    if (returns.type || returns.description) node.entries.push(part('returns', returns));
  }
  linkMembers(found, headings);
  return found.map((f) => ({ kind: f.kind, node: f.node }));
}

/** An item found by {@link readSignatures}, with where it is on the page. */
interface Found {
  el: unknown;
  isTerm: boolean;
  kind: ItemKind;
  name: string;
  signature: string | undefined;
  returnType: string | undefined;
  node: FactNode;
}

/** A part of a documented item (a parameter, what it returns) as a node of its own stated properties. */
function part(key: string, values: Record<string, string | undefined>): FactEntry {
  const node = newNode('structure', 'signature');
  for (const [k, v] of Object.entries(values)) if (v) node.entries.push({ key: k, value: v });
  // Its keys are its own (a parameter's description is not its function's): the walk does not go in.
  return { key, value: node, evidence: 'signature' };
}

/** A C type: words, `*`, `&`, `::` and template brackets (`const char **`, `xmlDocPtr`, `std::string`). */
const C_TYPE = /^(?:[A-Za-z_][\w:<>,]*\s*[*&]*\s*)+$/u;
/** Words before a C declaration's type that are no part of it. */
const STORAGE = /^(?:(?:static|extern|inline|virtual|explicit|typedef|XSLTPUBFUN|XMLPUBFUN|XMLCALL)\s+)+/u;

/** The type a C declaration states before its name (`xmlDocPtr\txsltApplyStylesheet (`): what it returns. */
function typeBefore(declaration: string): string | undefined {
  const before = collapse(declaration.replace(/[A-Za-z_$][\w$]*\s*\($/u, '')).replace(STORAGE, '');
  return before && C_TYPE.test(before) && !/^(?:#|define\b)/.test(before) ? before : undefined;
}

/**
 * What documents the item beside its signature: a term's `<dd>`, or what
 * follows a heading up to the next heading.
 */
function bodyOf(f: Found): unknown[] {
  if (f.isTerm) {
    let dd = nextElement(f.el);
    while (dd && tagName(dd) === 'dt') dd = nextElement(dd);
    return dd && tagName(dd) === 'dd' ? [dd] : [];
  }
  const body: unknown[] = [];
  for (
    let el = nextElement(f.el);
    el && !HEADINGS.has(tagName(el)) && body.length < MAX_BODY;
    el = nextElement(el)
  )
    body.push(el);
  return body;
}
/** An identifier; a parameter's name is the last one of its declaration (`const char ** params`). */
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
/** Words that are no parameter's name: C's empty list, Python's keyword-only and positional-only marks. */
const NO_PARAMETER = new Set(['void', '']);

/**
 * The names of a signature's parameters, in order (see {@link parameterDeclarations}).
 */
export function parameterNames(signature: string, name: string): string[] {
  return parameterDeclarations(signature, name).map((d) => d.name);
}

/**
 * A signature's parameters, in order: what is in the parentheses after the
 * item's name, split at its top-level commas (not those in a default's
 * parentheses or quotes; Node.js's optional brackets `[, options]` do not
 * nest), each named without its default (`=None`), its annotation (`: int`)
 * and its type before it (`xmlDocPtr doc`); the annotation or the C type is
 * its `type`.
 */
export function parameterDeclarations(signature: string, name: string): { name: string; type?: string }[] {
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
  const declared: { name: string; type?: string }[] = [];
  for (const p of parts) {
    const [named = '', annotation] = (p.replace(/[[\]]/g, ' ').split('=')[0] ?? '').split(':');
    const identifiers = named.match(IDENTIFIER) ?? [];
    const last = identifiers.at(-1) ?? '';
    if (NO_PARAMETER.has(last)) continue;
    // `xmlDocPtr doc`, `const char ** params`: the words before the name are its C type.
    const cType = identifiers.length > 1 ? collapse(named.slice(0, named.lastIndexOf(last))) : '';
    const type = collapse(annotation ?? '') || cType;
    declared.push(type && /[A-Za-z]/.test(type) && type.length <= 80 ? { name: last, type } : { name: last });
  }
  return declared;
}

/** A type and a description, as far as the page states them. */
type Stated = { type?: string | undefined; description?: string | undefined };

/** What the page states about an item's parameters and its return value beside its signature. */
interface Details {
  parameters: Map<string, Stated & { nested?: (Stated & { name: string })[] }>;
  returns: { type?: string | undefined; description?: string | undefined };
}

/** A label of what an item returns: gtk-doc's and Javadoc's "Returns:", Sphinx's "Returns", "Return value". */
const RETURNS_LABEL = /^(?:returns?|return values?|returned values?|result)$/iu;
/** A label of the type it returns: Sphinx's "Return type", "rtype". */
const RETURN_TYPE_LABEL = /^(?:return ?type|rtype|returns? type|result type)$/iu;
/** A label over its parameters: Sphinx's "Parameters", Javadoc's, "Arguments", "Keyword Arguments". */
const PARAMETERS_LABEL = /^(?:parameters?|params?|arguments?|args|keyword arguments?|other parameters)$/iu;
/** A line stating what it returns: Node.js's "Returns: <Promise> Fulfills with …". */
const RETURNS_LINE = /^(?:returns?|return value)\s*:\s*(.+)$/isu;
/**
 * A line stating one parameter: its name first, then its type or a
 * separator (`path <string> | <Buffer> filename…`, `timeout (float) – How
 * many…`, `flags: …`, `doc - the document`).
 */
const PARAMETER_LINE = /^\**([A-Za-z_$][\w$]*)\s*((?:<[^<>]{1,80}>|\([^()]{1,80}\)|[:–—-]).*)$/su;
/** Elements that hold no statement about the item: code, a change history (Node.js's `<details>`), scripts. */
const NOT_DETAILS = new Set(['pre', 'details', 'script', 'style', 'template', 'svg', 'code']);

/**
 * The types and descriptions of the item's parameters and what it returns,
 * as the page states them beside the signature, in the forms documentation
 * generators write them: a line per parameter in a list (Node.js's
 * `options <Object>` bullets, Sphinx's "Parameters" field of `name (type) –
 * text` items), a labelled row or term per parameter (gtk-doc's and
 * Doxygen's parameter tables, Javadoc's `<dl>`), and a "Returns" /
 * "Return type" label or line. A parameter is one the signature names,
 * or any name under a "Parameters" label. Nested lists (an option's own
 * properties, a callback's arguments) and other items inside the body (a
 * class's methods) are not the item's.
 */
function readDetails(body: unknown[], names: string[], items: ReadonlySet<unknown>): Details {
  const details: Details = { parameters: new Map(), returns: {} };
  const known = new Set(names);
  const parameter = (
    name: string,
    stated: { type?: string | undefined; description?: string | undefined },
  ) => {
    const had = details.parameters.get(name);
    details.parameters.set(name, {
      type: had?.type ?? stated.type,
      description: had?.description ?? stated.description,
    });
  };
  const returns = (stated: { type?: string | undefined; description?: string | undefined }) => {
    details.returns.type ??= stated.type;
    details.returns.description ??= stated.description;
  };
  /** Reads a line; the parameter it states, if it states one. */
  const line = (text: string, anyName: boolean): string | undefined => {
    const r = RETURNS_LINE.exec(text);
    if (r?.[1]) {
      returns(statedPart(r[1]));
      return undefined;
    }
    const m = PARAMETER_LINE.exec(text);
    if (!m?.[1] || !m[2] || !(anyName || known.has(m[1]))) return undefined;
    parameter(m[1], statedPart(m[2]));
    return m[1];
  };
  const field = (label: string, value: unknown[]) => {
    const l = label.replace(/\s*:$/u, '').trim();
    const named = l.replace(/^\**/u, '');
    // A parameter's own label first: gtk-doc's `params:` row is the parameter `params`.
    if (known.has(named)) parameter(named, { description: textOf(value) });
    else if (RETURN_TYPE_LABEL.test(l)) returns({ type: textOf(value) });
    else if (RETURNS_LABEL.test(l)) returns({ description: textOf(value) });
    else if (PARAMETERS_LABEL.test(l)) {
      const lines = value.flatMap((v) => listLines(v));
      if (lines.length > 0) for (const text of lines) line(text, true);
      else {
        // One parameter: its line is the field's first paragraph (Sphinx's `distance – a number`).
        const first = value.flatMap((v) => elementChildren(v)).find((c) => tagName(c) === 'p');
        line(collapse(blockText(first ?? value[0])), true);
      }
    }
  };
  let visited = 0;
  const visit = (el: unknown, depth: number) => {
    const tag = tagName(el);
    if (!tag || NOT_DETAILS.has(tag) || HEADINGS.has(tag) || depth > 8 || ++visited > MAX_VISITED) return;
    if (tag === 'dl') {
      const children = elementChildren(el);
      if (children.some((c) => items.has(c))) return;
      for (let i = 0; i < children.length; i++) {
        if (tagName(children[i]) !== 'dt') continue;
        let j = i + 1;
        while (j < children.length && tagName(children[j]) === 'dt') j++;
        if (tagName(children[j]) === 'dd') field(collapse(blockText(children[i])), [children[j]]);
      }
      return;
    }
    if (tag === 'table') {
      for (const row of rowsOf(el)) {
        const cells = elementChildren(row).filter((c) => tagName(c) === 'td' || tagName(c) === 'th');
        // Doxygen's `[in]` column before the name is no label.
        const start = cells.length > 2 && /^\[[a-z, ]+\]$/iu.test(collapse(blockText(cells[0]))) ? 1 : 0;
        const label = cells[start];
        if (label && cells.length > start + 1) field(collapse(blockText(label)), cells.slice(start + 1));
      }
      return;
    }
    if (tag === 'ul' || tag === 'ol') {
      for (const li of listItems(el)) {
        // Only an item that starts with a parameter's name or "Returns": the others' text is not built.
        const head = /^\s*\**([A-Za-z_$][\w$]*)/u.exec(firstText(li))?.[1] ?? '';
        if (!known.has(head) && !/^return/iu.test(head)) continue;
        const name = line(collapse(ownText(li)), false);
        const stated = name ? details.parameters.get(name) : undefined;
        // A nested list under a parameter: an option object's properties, a callback's arguments.
        if (stated && !stated.nested)
          stated.nested = listItems(li).flatMap((n) => {
            const m = PARAMETER_LINE.exec(collapse(ownText(n)));
            return m?.[1] && m[2] ? [{ name: m[1], ...statedPart(m[2]) }] : [];
          });
      }
      return;
    }
    if (tag === 'p') {
      // Only a paragraph that starts "Returns": the others' text is not built (a page has thousands).
      if (RETURNS_START.test(firstText(el))) line(collapse(blockText(el)), false);
      return;
    }
    for (const child of elementChildren(el)) visit(child, depth + 1);
  };
  for (const el of body) visit(el, 0);
  return details;
}

/** How a paragraph stating what an item returns starts. */
const RETURNS_START = /^\s*return/iu;

/** The first text inside an element that is not blank (down its first children). */
function firstText(el: unknown): string {
  for (const child of (el as Walkable).children ?? []) {
    const x = child as { type?: string; data?: string };
    if (x.type === 'text') {
      if (x.data?.trim()) return x.data;
      continue;
    }
    const inner = firstText(child);
    if (inner) return inner;
  }
  return '';
}

/** How many elements of an item's body are looked at, at most. */
const MAX_VISITED = 400;

/** Each item of a list as its own text, without the lists nested in it (an option's own properties). */
function listLines(el: unknown): string[] {
  return listItems(el)
    .map((li) => collapse(ownText(li)))
    .filter(Boolean);
}

/** The items of a list, or of the lists right inside an element. */
function listItems(el: unknown): unknown[] {
  const lists =
    tagName(el) === 'ul' || tagName(el) === 'ol'
      ? [el]
      : elementChildren(el).filter((c) => ['ul', 'ol'].includes(tagName(c)));
  return lists.flatMap((list) => elementChildren(list).filter((li) => tagName(li) === 'li'));
}

/** An element's text without its nested lists and code blocks (their text nodes, as written). */
function ownText(el: unknown): string {
  const parts: string[] = [];
  const walk = (node: unknown) => {
    for (const child of (node as Walkable).children ?? []) {
      const x = child as { type?: string; data?: string; name?: string };
      if (x.type === 'text') parts.push(x.data ?? '');
      else if (x.type === 'tag' && !OWN_TEXT_SKIPPED.has(x.name ?? '')) walk(child);
    }
  };
  walk(el);
  return parts.join('');
}

/** What is not an element's own text: the lists, tables and code inside it. */
const OWN_TEXT_SKIPPED = new Set(['ul', 'ol', 'dl', 'table', 'pre', 'script', 'style', 'template']);

/** The rows of a table (in its `<tbody>`/`<thead>` or not). */
function rowsOf(table: unknown): unknown[] {
  return elementChildren(table).flatMap((c) =>
    tagName(c) === 'tr' ? [c] : elementChildren(c).filter((r) => tagName(r) === 'tr'),
  );
}

/** The text of the elements of a field or row, on one line, as a description is kept. */
function textOf(value: unknown[]): string | undefined {
  return cut(collapse(value.map((v) => blockText(v)).join(' ')));
}

/** A description within {@link MAX_DESCRIPTION}: whole, or its sentences that fit. */
function cut(text: string): string | undefined {
  if (!text) return undefined;
  if (text.length <= MAX_DESCRIPTION) return text;
  const sentences = text.slice(0, MAX_DESCRIPTION).match(/^.*[.!?](?=\s)/su)?.[0];
  return sentences || undefined;
}

/**
 * A type and a description as a line states them after a name or
 * "Returns:": Node.js's types in angle brackets (`<string> | <Buffer>`),
 * Sphinx's in parentheses (`(int)`), then the text after a dash or colon.
 */
function statedPart(rest: string): { type?: string | undefined; description?: string | undefined } {
  let text = rest.trim();
  let type: string | undefined;
  const angled = /^(?:<[^<>]{1,80}>\s*(?:\|\s*)?)+/u.exec(text);
  if (angled) {
    type = (angled[0].match(/<[^<>]+>/gu) ?? []).map((t) => t.slice(1, -1).trim()).join(' | ');
    text = text.slice(angled[0].length);
  } else {
    const parenthesised = /^\(([^()]{1,80})\)/u.exec(text);
    if (parenthesised?.[1]) {
      type = parenthesised[1].trim();
      text = text.slice(parenthesised[0].length);
    }
  }
  text = text.replace(/^\s*(?:[–—:]|--?)\s*/u, '').trim();
  return { type: type || undefined, description: cut(text) };
}

/** What a member of a class is kept under in its class's item. */
const MEMBER_KEYS: Record<ItemKind, string> = {
  function: 'method',
  class: 'class',
  event: 'event',
  macro: 'macro',
  constant: 'constant',
  property: 'property',
};

const MEMBER_KEY_SET: ReadonlySet<string> = new Set(Object.values(MEMBER_KEYS));

/**
 * A class's members: the items documented inside its term's `<dd>`
 * (Sphinx's `dl.py.class > dd > dl.py.method`), or under its heading, at
 * deeper headings, up to the next heading of its level or above (Node.js's
 * "Class: fs.Dir" over "dir.close()" and "Event: 'close'"). Each is kept
 * in the class's item by its kind (`method`, `event`, `property`…), and
 * stays an item of the page too. Not those of a class inside it.
 */
function linkMembers(found: Found[], headings: unknown[]): void {
  const byElement = new Map(found.map((f) => [f.el, f]));
  const add = (owner: Found, member: Found) =>
    owner.node.entries.push({ key: MEMBER_KEYS[member.kind], value: member.node, evidence: 'signature' });
  for (const g of found) {
    // A term's class: the class term over the nearest `<dd>` it is in.
    if (!g.isTerm) continue;
    const owner = termOwner(g.el, byElement);
    if (owner) add(owner, g);
  }
  for (const f of found) {
    if (f.kind !== 'class' || f.isTerm) continue;
    const level = headingLevel(f.el);
    for (const h of headings.slice(headings.indexOf(f.el) + 1)) {
      if (headingLevel(h) <= level) break;
      const g = byElement.get(h);
      if (g) add(f, g);
    }
  }
}

/** The class item whose term's `<dd>` holds a term, nearest first; none when the nearest `<dd>` is no class's. */
function termOwner(term: unknown, byElement: Map<unknown, Found>): Found | undefined {
  for (let n = (term as { parent?: unknown }).parent; n; n = (n as { parent?: unknown }).parent) {
    if (tagName(n) !== 'dd') continue;
    let dt = (n as Walkable & { prev?: unknown }).prev;
    while (dt && tagName(dt) !== 'dt') dt = (dt as { prev?: unknown }).prev;
    const owner = dt ? byElement.get(dt) : undefined;
    return owner?.kind === 'class' ? owner : undefined;
  }
  return undefined;
}

/** A heading's level (`h3` → 3); a term's is below every heading's. */
function headingLevel(el: unknown): number {
  const tag = tagName(el);
  return HEADINGS.has(tag) ? Number(tag.slice(1)) : 7;
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
  const consider = (node: FactNode, name: string) => {
    const lastPart = name.split(/\.|::|->|#/).at(-1) ?? name;
    const score = namesWord(text, name)
      ? 2 * name.length
      : lastPart !== name && namesWord(text, lastPart)
        ? lastPart.length
        : 0;
    if (score > 0 && (!best || score > best.score)) best = { node, score };
  };
  for (const entry of structure.entries) {
    if (entry.evidence !== 'signature' || !isNode(entry.value)) continue;
    const name = entry.value.entries.find((e) => e.key === 'name')?.value;
    if (typeof name !== 'string') continue;
    consider(entry.value, name);
    // A class's members by their qualified names (`sqlite3.Connection.blobopen` for Sphinx's `blobopen`).
    for (const member of entry.value.entries) {
      if (member.evidence !== 'signature' || !isNode(member.value) || !MEMBER_KEY_SET.has(member.key))
        continue;
      const own = member.value.entries.find((e) => e.key === 'name')?.value;
      if (typeof own === 'string' && !own.includes('.')) consider(member.value, `${name}.${own}`);
    }
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
