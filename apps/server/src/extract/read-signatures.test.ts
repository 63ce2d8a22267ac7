import { readFileSync } from 'node:fs';
import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { DomIndex } from './dom-index.js';
import { type FactNode, isNode, newNode, valuesOf } from './page-facts.js';
import { type DocumentedItem, itemNamedBy, parameterNames, readSignatures } from './read-signatures.js';

function read(html: string): DocumentedItem[] {
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  return readSignatures(new DomIndex($));
}

/** Each item as `[kind, { name, signature, description }]` (its parameters, returns and members: their own tests). */
function shown(items: DocumentedItem[]) {
  return items.map((i) => [
    i.kind,
    Object.fromEntries(i.node.entries.filter((e) => !isNode(e.value)).map((e) => [e.key, e.value])),
  ]);
}

describe('readSignatures', () => {
  it('reads a heading that is a call signature, with the first paragraph under it (Node.js API shape)', () => {
    const html = `<h3>Callback API</h3>
      <h4><code>fs.readFile(path[, options], callback)</code><span></span></h4>
      <div class="api_metadata"><details><table><tr><td><p>Added in: v0.1.29</p></td></tr></table></details></div>
      <ul><li><code>path</code> &lt;string&gt;</li></ul>
      <p>Asynchronously reads the entire contents of a file.</p><p>More.</p>
      <h4><code>new fs.Dir()</code></h4><h4><code>dir.path</code></h4><p>The path.</p>`;
    expect(shown(read(html))).toEqual([
      [
        'function',
        {
          name: 'fs.readFile',
          signature: 'fs.readFile(path[, options], callback)',
          description: 'Asynchronously reads the entire contents of a file.',
        },
      ],
      // No paragraph before the next heading: no description.
      ['function', { name: 'fs.Dir', signature: 'new fs.Dir()' }],
    ]);
  });

  it('reads a definition term that is one, with its text, and a class by its keyword (Sphinx shape)', () => {
    const html = `<dl class="py function"><dt class="sig sig-object py" id="json.dumps"><span class="sig-prename">json.</span><span class="sig-name">dumps</span>(<em>obj</em>, <em>*</em>, <em>indent=None</em>)</dt>
      <dd><p>Serialize <em>obj</em> to a JSON formatted str.</p><p>Other.</p></dd></dl>
      <dl class="py class"><dt><em class="property">class </em>json.JSONDecoder(<em>*</em>, <em>strict=True</em>)</dt><dd>Simple JSON decoder.</dd></dl>`;
    expect(shown(read(html))).toEqual([
      [
        'function',
        {
          name: 'json.dumps',
          signature: 'json.dumps(obj, *, indent=None)',
          description: 'Serialize obj to a JSON formatted str.',
        },
      ],
      [
        'class',
        {
          name: 'json.JSONDecoder',
          signature: 'class json.JSONDecoder(*, strict=True)',
          description: 'Simple JSON decoder.',
        },
      ],
    ]);
  });

  it('reads a heading that names an item over the code block stating its signature (gtk-doc shape)', () => {
    const html = `<h3><a name="xsltFree"></a>Function: xsltFree</h3>
      <pre class="programlisting">void	xsltFree	(<a href="#t">xsltPtr</a> style, <br/>			 int flags)</pre>
      <p>Frees the stylesheet.</p>
      <h3>Example</h3><pre>make all</pre>`;
    expect(shown(read(html))).toEqual([
      [
        'function',
        {
          name: 'xsltFree',
          signature: 'void xsltFree (xsltPtr style, int flags)',
          description: 'Frees the stylesheet.',
        },
      ],
    ]);
  });

  it('reads a heading labelled with its kind, over a name alone or a signature (Node.js, gtk-doc shapes)', () => {
    const html = `<h3>Class: <code>fs.Dir</code></h3><p>A class representing a directory stream.</p>
      <h4>Event: <code>'close'</code></h4><p>Emitted when the stream is closed.</p>
      <h4>Static method: <code>Buffer.alloc(size[, fill])</code></h4><p>Allocates a new Buffer.</p>
      <h3>Macro: XSLT_GET_PTR</h3><pre>#define XSLT_GET_PTR(res, style);</pre><p>Gets the pointer.</p>
      <h3>Macro: XSLT_STOP</h3><pre>#define XSLT_STOP</pre><p>Stops.</p>
      <h2>Modules: CommonJS modules</h2><h3>Example: reading a file</h3><h3>Class: the one we use</h3>`;
    expect(shown(read(html))).toEqual([
      ['class', { name: 'fs.Dir', description: 'A class representing a directory stream.' }],
      ['event', { name: 'close', description: 'Emitted when the stream is closed.' }],
      [
        'function',
        {
          name: 'Buffer.alloc',
          signature: 'Buffer.alloc(size[, fill])',
          description: 'Allocates a new Buffer.',
        },
      ],
      [
        'macro',
        {
          name: 'XSLT_GET_PTR',
          signature: '#define XSLT_GET_PTR(res, style);',
          description: 'Gets the pointer.',
        },
      ],
      ['macro', { name: 'XSLT_STOP', signature: '#define XSLT_STOP', description: 'Stops.' }],
    ]);
  });

  it('does not take a remark in parentheses, a manual page name, or prose for a signature', () => {
    const html = `<h2>Installation (optional)</h2><h1>git-add(1)</h1><h2>ls(1)</h2>
      <dt>Call f(x) for each item (see above)</dt><dd>Text.</dd><h3>Options</h3><pre>run(1)</pre>`;
    expect(read(html)).toEqual([]);
  });
});

/**
 * The items of a section cut verbatim from a real reference page
 * (`test/fixtures/api-reference/README.md`), its permalink marks dropped
 * first as `read-page.ts` does.
 */
function readExcerpt(name: string): DocumentedItem[] {
  const html = readFileSync(new URL(`../../test/fixtures/api-reference/${name}`, import.meta.url), 'utf8');
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  $('h1, h2, h3, h4, h5, h6, dt')
    .find('a[href^="#"]')
    .filter((_, a) => /^[#¶]$/u.test($(a).text().trim()))
    .remove();
  return readSignatures(new DomIndex($));
}

/** An item's node as plain JSON: its parts as objects, repeated keys as arrays. */
function plain(node: FactNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of node.entries) {
    const value = isNode(e.value) ? plain(e.value) : e.value;
    const had = out[e.key];
    out[e.key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

describe('readSignatures: parameters, return values and members as real pages state them', () => {
  it("reads Sphinx's Parameters field (name (type) – text) and its Return type field", () => {
    const [item] = readExcerpt('sphinx-blobopen.html');
    expect(plain(item!.node)).toMatchObject({
      name: 'blobopen',
      parameter: [
        { name: 'table', type: 'str', description: 'The name of the table where the blob is located.' },
        { name: 'column', type: 'str', description: 'The name of the column where the blob is located.' },
        { name: 'row', type: 'str', description: 'The name of the row where the blob is located.' },
        {
          name: 'readonly',
          type: 'bool',
          description:
            'Set to True if the blob should be opened without write permissions. Defaults to False.',
        },
        {
          name: 'name',
          type: 'str',
          description: 'The name of the database where the blob is located. Defaults to "main".',
        },
      ],
      returns: { type: 'Blob' },
    });
  });

  it("reads a Sphinx signature's return annotation (→ float) as what it returns", () => {
    const [item] = readExcerpt('sphinx-clock_gettime.html');
    expect(plain(item!.node)).toMatchObject({
      name: 'time.clock_gettime',
      signature: 'time.clock_gettime(clk_id) → float',
      parameter: { name: 'clk_id' },
      returns: { type: 'float' },
    });
  });

  it("reads Node.js's typed bullets, an option object's own list as its properties, and its Returns line", () => {
    const [item] = readExcerpt('node-readfile.html');
    expect(plain(item!.node)).toEqual({
      name: 'fsPromises.readFile',
      signature: 'fsPromises.readFile(path[, options])',
      parameter: [
        { name: 'path', type: 'string | Buffer | URL | FileHandle', description: 'filename or FileHandle' },
        {
          name: 'options',
          type: 'Object | string',
          property: [
            { name: 'encoding', type: 'string | null', description: 'Default: null' },
            { name: 'flag', type: 'string', description: "See support of file system flags. Default: 'r'." },
            { name: 'signal', type: 'AbortSignal', description: 'allows aborting an in-progress readFile' },
          ],
        },
      ],
      description: 'Asynchronously reads the entire contents of a file.',
      returns: { type: 'Promise', description: 'Fulfills with the contents of the file.' },
    });
  });

  it("reads gtk-doc's parameter table (a parameter called params too), its Returns row and the C return type", () => {
    const [item] = readExcerpt('gtkdoc-applyuser.html');
    expect(plain(item!.node)).toMatchObject({
      name: 'xsltApplyStylesheetUser',
      parameter: [
        { name: 'style', type: 'xsltStylesheetPtr', description: 'a parsed XSLT stylesheet' },
        { name: 'doc', type: 'xmlDocPtr', description: 'a parsed XML document' },
        {
          name: 'params',
          type: 'const char **',
          description: 'a NULL terminated array of parameters names/values tuples',
        },
        { name: 'output', type: 'const char *', description: 'the targetted output' },
        { name: 'profile', type: 'FILE *', description: 'profile FILE * output or NULL' },
        { name: 'userCtxt', type: 'xsltTransformContextPtr', description: 'user provided transform context' },
      ],
      returns: { type: 'xmlDocPtr', description: 'the result document or NULL in case of error' },
    });
  });

  it("reads Texinfo's labelled C declaration (Function: ffi_status ffi_prep_cif (…)): its return type, parameters' types", () => {
    const [item] = readExcerpt('texinfo-prep_cif.html');
    expect(plain(item!.node)).toMatchObject({
      name: 'ffi_prep_cif',
      parameter: [
        { name: 'cif', type: 'ffi_cif *' },
        { name: 'abi', type: 'ffi_abi' },
        { name: 'nargs', type: 'unsigned int' },
        { name: 'rtype', type: 'ffi_type *' },
        { name: 'argtypes', type: 'ffi_type **' },
      ],
      description: 'This initializes cif according to the given parameters.',
      returns: { type: 'ffi_status' },
    });
  });

  it('keeps a pointer written against the name in the return type of a labelled C declaration', () => {
    const html = `<dl class="def"><dt><span class="category">Function: </span><span><strong>char</strong> <em>*strdup (const char *s)</em></span></dt><dd><p>Copies s.</p></dd></dl>`;
    expect(plain(read(html)[0]!.node)).toMatchObject({
      name: 'strdup',
      parameter: { name: 's', type: 'const char *' },
      returns: { type: 'char *' },
    });
  });

  it("links a Sphinx class to the methods in its <dd>, which a query names by the class's name", () => {
    const items = readExcerpt('sphinx-jsondecoder.html');
    const decoder = items.find((i) => i.kind === 'class')!;
    const methods = valuesOf(decoder.node, 'method').map((m) => plain(m as FactNode));
    expect(methods.map((m) => [m.name, m.signature])).toEqual([
      ['decode', 'decode(s)'],
      ['raw_decode', 'raw_decode(s)'],
    ]);
    // The methods stay items of the page, and their class's parameters are not theirs.
    expect(items.map((i) => [i.kind, plain(i.node).name])).toEqual([
      ['class', 'json.JSONDecoder'],
      ['function', 'decode'],
      ['function', 'raw_decode'],
    ]);
    expect(methods[0]).not.toHaveProperty('returns');
    const structure = newNode('structure', 'label');
    for (const i of items) structure.entries.push({ key: i.kind, value: i.node, evidence: 'signature' });
    expect(itemNamedBy(structure, 'what does json.JSONDecoder.raw_decode return')).toBe(items[2]!.node);
  });

  it('reads a Sphinx class declared without parameters (class sqlite3.Blob) and links its methods', () => {
    const items = readExcerpt('sphinx-blob.html');
    const blob = items.find((i) => i.kind === 'class');
    expect(blob && plain(blob.node).name).toBe('sqlite3.Blob');
    expect(valuesOf(blob!.node, 'method').map((m) => plain(m as FactNode).signature)).toEqual([
      'close()',
      'read(length=-1, /)',
      'write(data, /)',
      'tell()',
      'seek(offset, origin=os.SEEK_SET, /)',
    ]);
  });
});

describe('itemNamedBy', () => {
  const structure = newNode('structure', 'label');
  for (const name of ['fs.read', 'fs.readFile', 'fsPromises.readFile', 'encode']) {
    const node = newNode('structure', 'signature');
    node.entries.push({ key: 'name', value: name });
    structure.entries.push({ key: 'function', value: node, evidence: 'signature' });
  }
  const named = (query: string) => {
    const node = itemNamedBy(structure, query);
    return node?.entries[0]?.value;
  };

  it('finds the item by its full name as a whole word, or by its last part', () => {
    expect(named('the signature of fs.readFile')).toBe('fs.readFile');
    expect(named('What does FS.READFILE return?')).toBe('fs.readFile');
    expect(named('the signature of fs.read.')).toBe('fs.read');
    // A plain word names an item only when the query calls it.
    expect(named('how to call encode()')).toBe('encode');
    expect(named('how to encode a value')).toBeUndefined();
    // Only the last part: the first item with it.
    expect(named('the options of readFile')).toBe('fs.readFile');
  });

  it('finds nothing where the name is part of a longer one, or no query', () => {
    expect(named('fs.readFileSync')).toBeUndefined();
    expect(named('encoder settings')).toBeUndefined();
    expect(itemNamedBy(structure, undefined)).toBeUndefined();
  });
});

describe('parameterNames', () => {
  it('names the parameters of Node.js, Python and C signatures', () => {
    expect(parameterNames('fs.readFile(path[, options], callback)', 'fs.readFile')).toEqual([
      'path',
      'options',
      'callback',
    ]);
    expect(parameterNames('assert.fail(actual, expected[, message[, operator]])', 'assert.fail')).toEqual([
      'actual',
      'expected',
      'message',
      'operator',
    ]);
    expect(
      parameterNames("json.dumps(obj, *, sep=(', ', ': '), indent: int = None, **kw) → str", 'json.dumps'),
    ).toEqual(['obj', 'sep', 'indent', 'kw']);
    expect(parameterNames('xmlDocPtr xsltApply (xsltPtr style, const char ** params)', 'xsltApply')).toEqual([
      'style',
      'params',
    ]);
    expect(parameterNames('int xsltInit (void)', 'xsltInit')).toEqual([]);
    expect(parameterNames('dir.close()', 'dir.close')).toEqual([]);
    expect(
      parameterNames('asyncLocalStorage.run(store, callback[, ...args])', 'asyncLocalStorage.run'),
    ).toEqual(['store', 'callback', 'args']);
  });
});
