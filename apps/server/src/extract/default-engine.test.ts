import { readFileSync } from 'node:fs';
import type { ExtractionSchema, SchemaProperty } from '@webdata/contract';
import { describe, expect, it } from 'vitest';
import { DefaultExtractionEngine } from './default-engine.js';

const engine = new DefaultExtractionEngine();
const url = 'https://site.example/page';
const run = (html: string, schema?: ExtractionSchema, query?: string) =>
  engine.extract({ url, html, schema, query });
const dataOf = async (html: string, schema?: ExtractionSchema, query?: string) => {
  const outcome = await run(html, schema, query);
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.message}`);
  return outcome.data;
};

const priceSchema: ExtractionSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['price'],
};

describe('DefaultExtractionEngine sources', () => {
  it('reads JSON-LD, including @graph and nested offers', async () => {
    const html = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
      {"@type":"WebSite","name":"Shop"},
      {"@type":"Product","name":"Kettle","offers":{"@type":"Offer","price":"35.50","priceCurrency":"EUR"}}]}</script>`;
    expect(await dataOf(html, priceSchema)).toEqual({ name: 'Kettle', price: 35.5 });
  });

  it('reads microdata with nested items', async () => {
    const html = `<div itemscope itemtype="https://schema.org/Product"><h2 itemprop="name">Toaster</h2>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="19.99"></div></div>`;
    expect(await dataOf(html, priceSchema)).toEqual({ name: 'Toaster', price: 19.99 });
  });

  it('reads OpenGraph and product meta tags', async () => {
    const html = `<head><meta property="og:title" content="Mug"><meta property="product:price:amount" content="12.00"></head>`;
    expect(await dataOf(html, priceSchema)).toEqual({ name: 'Mug', price: 12 });
  });

  it('reads label/value text, definition lists and two-column tables', async () => {
    const html = `<h1>Chair</h1><p>Price: $1,049.00</p><dl><dt>Material</dt><dd>Oak</dd></dl>
      <table><tr><th>Weight</th><td>7 kg</td></tr><tr><th>Colour</th><td>Natural</td></tr></table>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        material: { type: 'string' },
        weight: { type: 'string' },
        color: { type: 'string' },
      },
    };
    expect(await dataOf(html, schema)).toEqual({
      name: 'Chair',
      price: 1049,
      material: 'Oak',
      weight: '7 kg',
      color: 'Natural',
    });
  });

  it('finds e-mail, phone and date by pattern and link', async () => {
    const html = `<article><h1>Notice</h1><p class="date">Published 5 March 2024</p>
      <p>Write to <a href="mailto:desk@news.example">us</a> or call <a href="tel:+15551234">+1 555 1234</a>.</p></article>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        phone: { type: 'string' },
        date: { type: 'string', format: 'date' },
      },
    };
    expect(await dataOf(html, schema)).toEqual({
      email: 'desk@news.example',
      phone: '+15551234',
      date: '2024-03-05',
    });
  });

  it('trusts JSON-LD over microdata over meta tags over visible text', async () => {
    const jsonld = `<script type="application/ld+json">{"@type":"Product","name":"A","offers":{"price":"1"}}</script>`;
    const micro = `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">B</span><meta itemprop="price" content="2"></div>`;
    const meta = `<meta property="og:title" content="C"><meta property="product:price:amount" content="3">`;
    const text = `<h1>D</h1><p>Price: 4</p>`;
    expect(await dataOf(jsonld + micro + meta + text, priceSchema)).toEqual({ name: 'A', price: 1 });
    expect(await dataOf(micro + meta + text, priceSchema)).toEqual({ name: 'B', price: 2 });
    expect(await dataOf(meta + text, priceSchema)).toEqual({ name: 'C', price: 3 });
    expect(await dataOf(text, priceSchema)).toEqual({ name: 'D', price: 4 });
  });

  it('picks the item that fits the schema among several JSON-LD items', async () => {
    const html = `<script type="application/ld+json">[{"@type":"Organization","name":"Acme Corp","url":"https://acme.example"},
      {"@type":"JobPosting","title":"Welder","hiringOrganization":{"@type":"Organization","name":"Acme Corp"},
       "baseSalary":{"@type":"MonetaryAmount","currency":"USD","value":{"@type":"QuantitativeValue","value":31,"unitText":"HOUR"}}}]</script>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: { title: { type: 'string' }, company: { type: 'string' }, salary: { type: 'number' } },
    };
    expect(await dataOf(html, schema, 'job title and pay')).toEqual({
      title: 'Welder',
      company: 'Acme Corp',
      salary: 31,
    });
  });
});

describe('DefaultExtractionEngine on documentation pages', () => {
  const nullable = (type: string, extra: Record<string, unknown> = {}) =>
    ({ type: [type, 'null'], ...extra }) as SchemaProperty;

  it('gives a URL property the address of a labelled link, not its text made absolute', async () => {
    const html = `<h1>json</h1><p><strong>Source code:</strong> <a href="https://code.example/Lib/json/">Lib/json</a></p>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: { sourceCode: nullable('string', { format: 'uri' }) },
    };
    expect(await dataOf(html, schema)).toEqual({ sourceCode: 'https://code.example/Lib/json/' });
  });

  it('takes a key the query names when it covers the property, a label alone on its line, without quotes', async () => {
    const html = `<ol><li>Fixed a bug.<li>SQLITE_SOURCE_ID:<br>"2014-02-03 13:52:03 e816dd92"</ol>`;
    const schema: ExtractionSchema = { type: 'object', properties: { sourceId: nullable('string') } };
    expect(await dataOf(html, schema, 'The SQLITE_SOURCE_ID of the release.')).toEqual({
      sourceId: '2014-02-03 13:52:03 e816dd92',
    });
    // Without the query naming it, the key only partly names the property: no guess.
    expect(await dataOf(html, schema)).toEqual({ sourceId: null });
  });

  it("does not take Readability's first paragraph for a summary the page states", async () => {
    const prose =
      'This command formats the lines of its standard input into a table with several columns. '.repeat(3);
    const html = `<html><head><title>Columns</title></head><body><article><h1>Columns</h1><p>${prose}</p><p>${prose}</p></article></body></html>`;
    const schema: ExtractionSchema = { type: 'object', properties: { summary: nullable('string') } };
    expect(await dataOf(html, schema)).toEqual({ summary: null });
  });

  it("takes the title, not a header's <h1> that is the site's name the title ends with", async () => {
    // A page too large for Readability (article: null) leaves the title and the <h1> to decide;
    // the <h1> is made of title words, but only of the site's part of it.
    const html = `<html><head><title>Zlib | Runtime v20.1 Documentation</title></head><body>
      <header><h1>Runtime v20.1 documentation</h1></header>
      <div id="content"><h2>Zlib</h2><p>The zlib module provides compression functionality.</p></div></body></html>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: { title: nullable('string'), siteName: nullable('string') },
    };
    const outcome = await engine.extract({ url, html, schema, article: null });
    expect(outcome.ok && outcome.data.title).toBe('Zlib | Runtime v20.1 Documentation');
    // An <h1> that is the part the title starts with is still the headline.
    const headed = html.replace('<header><h1>Runtime v20.1 documentation</h1></header>', '<h1>Zlib</h1>');
    const again = await engine.extract({ url, html: headed, schema, article: null });
    expect(again.ok && again.data.title).toBe('Zlib');
  });

  it('reads a manual page: command, summary, section as an integer, last update as a date-time', async () => {
    const html = `<html><head><title>git-column(1)</title></head><body><div id="header"><h1>git-column(1) Manual Page</h1>
      <h2>NAME</h2><div class="sectionbody"><p>git-column - Display data in columns</p></div></div>
      <div id="content"><h2>DESCRIPTION</h2><div><p>This command formats the lines of its standard input into a table.</p></div></div>
      <div id="footer"><div id="footer-text">Last updated<br> 2024-05-31 00:35:55 UTC</div></div></body></html>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        command: nullable('string'),
        summary: nullable('string'),
        manualSection: nullable('integer'),
        lastUpdated: nullable('string', { format: 'date-time' }),
      },
    };
    expect(await dataOf(html, schema)).toEqual({
      command: 'git-column',
      summary: 'Display data in columns',
      manualSection: 1,
      lastUpdated: '2024-05-31T00:35:55Z',
    });
  });
});

describe('DefaultExtractionEngine schema rules', () => {
  it('fails a required property it cannot find, never inventing a value', async () => {
    const outcome = await run('<h1>Lamp</h1><p>Beautiful lamp.</p>', priceSchema);
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'extraction_failed', message: 'required property "price" not found on the page' },
    });
  });

  it('omits a missing optional property, or sets null when the schema allows it', async () => {
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        sku: { type: 'string' },
        brand: { type: 'string', nullable: true },
        rating: { type: ['number', 'null'] },
      },
    };
    expect(await dataOf('<h1>Lamp</h1>', schema)).toEqual({ name: 'Lamp', brand: null, rating: null });
  });

  it('fills nested objects and arrays of objects and scalars', async () => {
    const html = `<script type="application/ld+json">{"@type":"Event","name":"Jazz night","startDate":"2025-02-01T20:00:00+01:00",
      "location":{"@type":"Place","name":"Blue Room","address":{"@type":"PostalAddress","addressLocality":"Ghent","addressCountry":"BE"}},
      "performer":[{"@type":"Person","name":"Ann"},{"@type":"Person","name":"Bo"}],
      "offers":[{"@type":"Offer","name":"Standing","price":"15"},{"@type":"Offer","name":"Seated","price":"25"}]}</script>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        start: { type: 'string', format: 'date-time' },
        venue: {
          type: 'object',
          properties: { name: { type: 'string' }, city: { type: 'string' } },
          required: ['name'],
        },
        performers: { type: 'array', items: { type: 'string' } },
        tickets: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
        },
      },
      required: ['name', 'venue'],
    };
    expect(await dataOf(html, schema)).toEqual({
      name: 'Jazz night',
      start: '2025-02-01T20:00:00+01:00',
      venue: { name: 'Blue Room', city: 'Ghent' },
      performers: ['Ann', 'Bo'],
      tickets: [
        { name: 'Standing', price: 15 },
        { name: 'Seated', price: 25 },
      ],
    });
  });

  it('reads arrays from lists under a heading and from table rows', async () => {
    const html = `<h2>Ingredients</h2><ul><li>2 eggs</li><li>100 g flour</li></ul>
      <table><thead><tr><th>Name</th><th>Role</th></tr></thead><tbody><tr><td>Ida</td><td>Chef</td></tr><tr><td>Max</td><td>Baker</td></tr></tbody></table>`;
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        ingredients: { type: 'array', items: { type: 'string' } },
        staff: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, role: { type: 'string' } } },
        },
      },
    };
    expect(await dataOf(html, schema)).toEqual({
      ingredients: ['2 eggs', '100 g flour'],
      staff: [
        { name: 'Ida', role: 'Chef' },
        { name: 'Max', role: 'Baker' },
      ],
    });
  });

  it('reads a range written as text into a nested object', async () => {
    const schema: ExtractionSchema = {
      type: 'object',
      properties: {
        salary: {
          type: 'object',
          properties: { min: { type: 'number' }, max: { type: 'number' }, currency: { type: 'string' } },
        },
      },
    };
    expect(await dataOf('<p>Salary: £40,000 – £48,000 per annum</p>', schema)).toEqual({
      salary: { min: 40000, max: 48000, currency: 'GBP' },
    });
  });

  it('checks the output against the schema and names the failing path', async () => {
    const schema: ExtractionSchema = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 3 } },
    };
    const outcome = await run('<h1>Much too long a name</h1>', schema);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('extraction_failed');
      expect(outcome.error.message).toContain('/name');
    }
  });

  it('answers a cancelled request without work', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await engine.extract({
      url,
      html: '<h1>x</h1>',
      schema: priceSchema,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});

describe('DefaultExtractionEngine without a schema', () => {
  it('answers a generic object steered by the query words', async () => {
    const html = `<head><title>Kettle | Shop</title><meta name="description" content="A steel kettle."></head>
      <body><h1>Steel Kettle</h1><p>Price: €35</p><p>Capacity: 1.7 l</p>
      <p>The kettle boils a full capacity of water in under four minutes.</p></body>`;
    const data = await dataOf(html, undefined, 'kettle capacity and price');
    expect(data).toMatchObject({
      url,
      title: 'Steel Kettle',
      description: 'A steel kettle.',
      fields: { capacity: '1.7 l', price: '€35' },
      facts: { Price: '€35', Capacity: '1.7 l' },
    });
    expect(data.matches).toContain('The kettle boils a full capacity of water in under four minutes.');
    expect(data.engine).toBeUndefined();
  });

  it('gives each term of a definition list nested in another once', async () => {
    const html = `<h1>commit</h1><dl>
      <dt>--cleanup=&lt;mode&gt;</dt><dd><p>How to clean up the message:</p>
        <dl><dt>strip</dt><dd>Strip empty lines.</dd><div><dt>verbatim</dt><dd>Keep it as it is.</dd></div></dl></dd>
      <dt>--quiet</dt><dd>Say less.</dd></dl>`;
    const data = await dataOf(html, undefined, 'options');
    expect(data.facts).toMatchObject({
      strip: 'Strip empty lines.',
      verbatim: 'Keep it as it is.',
      '--quiet': 'Say less.',
    });
    expect(String((data.facts as Record<string, unknown>)['--cleanup=<mode>'])).toMatch(
      /^How to clean up the message:/,
    );
  });
});

describe('DefaultExtractionEngine on definition lists under a heading', () => {
  const optionsSchema = (itemProps: Record<string, SchemaProperty>, name = 'options'): ExtractionSchema => ({
    type: 'object',
    properties: { [name]: { type: 'array', items: { type: 'object', properties: itemProps } } },
  });
  const text: SchemaProperty = { type: 'string' };
  // AsciiDoc's shape: the heading, then the list in sectionbody/dlist wrappers.
  const manual = `<div class="sect1"><h2>OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>
    <dt>-q</dt><dt>--quiet</dt><dd><p>Say less.</p></dd>
    <dt>--into=&lt;file&gt;</dt><dd><p>Write into the file.</p></dd></dl></div></div></div>`;

  it('reads each term as an item: the term under a property named like the heading, its text as description', async () => {
    expect(await dataOf(manual, optionsSchema({ option: text, description: text }))).toEqual({
      options: [
        { option: '-q, --quiet', description: 'Say less.' },
        { option: '--into=<file>', description: 'Write into the file.' },
      ],
    });
  });

  it('gives the term to a property called name or term, whatever the heading', async () => {
    const html = `<h3>Environment</h3><dl><dt>HOME</dt><dd>The home directory.</dd><dt>PAGER</dt><dd>The pager.</dd></dl>`;
    expect(await dataOf(html, optionsSchema({ name: text, description: text }, 'environment'))).toEqual({
      environment: [
        { name: 'HOME', description: 'The home directory.' },
        { name: 'PAGER', description: 'The pager.' },
      ],
    });
    expect(await dataOf(html, optionsSchema({ term: text }, 'environment'))).toEqual({
      environment: [{ term: 'HOME' }, { term: 'PAGER' }],
    });
    const described = `<h3>Descriptions</h3><dl><dt>HOME</dt><dd>The home.</dd><dt>PAGER</dt><dd>The pager.</dd></dl>`;
    expect(await dataOf(described, optionsSchema({ name: text, description: text }, 'descriptions'))).toEqual(
      {
        descriptions: [
          { name: 'HOME', description: 'The home.' },
          { name: 'PAGER', description: 'The pager.' },
        ],
      },
    );
  });

  it('takes the list whose heading ends in the word the query names', async () => {
    const html = `<div><h3>4.2. Files</h3><dl><dt>a.conf</dt><dd>Settings.</dd><dt>b.log</dt><dd>The log.</dd></dl></div>
      <div><h3>4.3. Memcheck Command-Line Options</h3><dl><dt>--leak-check</dt><dd>Search for leaks.</dd>
      <dt>--track-origins</dt><dd>Track where values come from.</dd></dl></div>`;
    const schema = optionsSchema({ name: text, description: text }, 'flags');
    const data = await dataOf(html, schema, 'the command-line options');
    expect((data.flags as { name: string }[]).map((f) => f.name)).toEqual([
      '--leak-check',
      '--track-origins',
    ]);
    // Without the query, the first list that fits.
    expect(((await dataOf(html, schema)).flags as { name: string }[])[0]?.name).toBe('a.conf');
  });

  it('answers a query without a schema with the lists whose heading it names', async () => {
    const data = await dataOf(manual, undefined, 'the options');
    expect(data.lists).toEqual({
      OPTIONS: [
        { term: '-q, --quiet', description: 'Say less.' },
        { term: '--into=<file>', description: 'Write into the file.' },
      ],
    });
    expect(data.facts).toMatchObject({ '--quiet': 'Say less.', '--into=<file>': 'Write into the file.' });
    expect((await dataOf(manual, undefined, 'the files')).lists).toBeUndefined();
  });

  it('reads no list from a definition list without a heading, or with one term', async () => {
    const schema = optionsSchema({ option: text, description: text });
    expect(
      await dataOf('<dl><dt>-q</dt><dd>Say less.</dd><dt>-v</dt><dd>Say more.</dd></dl>', schema),
    ).toEqual({});
    expect(await dataOf('<h2>OPTIONS</h2><dl><dt>-q</dt><dd>Say less.</dd></dl>', schema)).toEqual({});
  });
});

describe('DefaultExtractionEngine on names that Object.prototype also has', () => {
  // Labels and headings are page text: `constructor`, `toString` and `__proto__` are names like any other.
  const html = `<h2>constructor</h2><dl><dt>constructor</dt><dd>Makes one.</dd><dt>toString</dt><dd>Text.</dd>
    <dt>__proto__</dt><dd>The prototype.</dd></dl>`;

  it('answers a query with those labels and headings as keys', async () => {
    const data = await dataOf(html, undefined, 'the constructor');
    // As the API answers it (a `__proto__` key in an object literal would set the prototype instead).
    expect(JSON.parse(JSON.stringify(data.facts))).toEqual(
      JSON.parse('{"constructor":"Makes one.","toString":"Text.","__proto__":"The prototype."}'),
    );
    expect(Object.keys(data.lists as object)).toEqual(['constructor']);
  });
});

describe('DefaultExtractionEngine on reference pages that document functions', () => {
  const text: SchemaProperty = { type: 'string' };
  const functionsSchema = (name = 'functions'): ExtractionSchema => ({
    type: 'object',
    properties: {
      [name]: {
        type: 'array',
        items: { type: 'object', properties: { name: text, signature: text, description: text } },
      },
    },
  });
  // Node.js API shape: a signature in each heading with its permalink mark, the parameters as a list
  // (whose "callback <Function>" items named "functions" loosely), then the description.
  const nodeShaped = `<html><head><title>File system | Docs</title></head><body><h1>File system</h1>
    <p>The fs module enables interacting with the file system in a way modeled on standard POSIX functions.</p>
    <h3>Callback API<span><a class="mark" href="#callback-api">#</a></span></h3>
    <h4><code>fs.access(path[, mode], callback)</code><span><a class="mark" href="#fsaccess">#</a></span></h4>
    <ul><li><code>path</code> &lt;string&gt;</li><li><code>callback</code> <a>&lt;Function&gt;</a>
    <ul><li><code>err</code> &lt;Error&gt;</li><li><code>mode</code> &lt;integer&gt;</li></ul></li></ul>
    <p>Tests a user's permissions for the file or directory specified by path.</p>
    <h4><code>fs.readFile(path[, options], callback)</code><span><a class="mark" href="#fsreadfile">#</a></span></h4>
    <ul><li><code>callback</code> <a>&lt;Function&gt;</a><ul><li><code>err</code> &lt;Error&gt;</li>
    <li><code>data</code> &lt;string&gt;</li></ul></li></ul>
    <p>Asynchronously reads the entire contents of a file.</p></body></html>`;
  const access = {
    name: 'fs.access',
    signature: 'fs.access(path[, mode], callback)',
    description: "Tests a user's permissions for the file or directory specified by path.",
  };
  const readFile = {
    name: 'fs.readFile',
    signature: 'fs.readFile(path[, options], callback)',
    description: 'Asynchronously reads the entire contents of a file.',
  };

  it('answers an array of functions from headings that are signatures, whatever the page calls them', async () => {
    expect(await dataOf(nodeShaped, functionsSchema())).toEqual({ functions: [access, readFile] });
    expect(await dataOf(nodeShaped, functionsSchema('methods'))).toEqual({ methods: [access, readFile] });
    // Named like nothing on the page: the items' properties name them.
    expect(await dataOf(nodeShaped, functionsSchema('api'))).toEqual({ api: [access, readFile] });
  });

  it('answers a query about one function from that function, not from the page or another function', async () => {
    const schema: ExtractionSchema = {
      type: 'object',
      properties: { signature: text, description: text, title: text },
    };
    // The page's own properties stay the page's: the item's name is no title.
    const { title } = await dataOf(nodeShaped, { type: 'object', properties: { title: text } });
    expect(title).toBe('File system | Docs');
    expect(await dataOf(nodeShaped, schema, 'the signature of fs.readFile')).toEqual({
      signature: readFile.signature,
      description: readFile.description,
      title,
    });
    const data = await dataOf(nodeShaped, undefined, 'the signature of fs.readFile');
    expect(data.fields).toMatchObject({ signature: readFile.signature });
    expect(JSON.parse(JSON.stringify(data.item))).toEqual({
      ...readFile,
      parameter: [
        { name: 'path' },
        { name: 'options' },
        // The callback's own arguments: the list under it.
        {
          name: 'callback',
          type: 'Function',
          parameter: [
            { name: 'err', type: 'Error' },
            { name: 'data', type: 'string' },
          ],
        },
      ],
    });
    expect(data.title).toBe('File system | Docs');
  });

  it('answers the events and classes a page documents under headings labelled with their kind', async () => {
    const html = `<h2>Class: <code>net.Server</code><a class="mark" href="#class-netserver">#</a></h2>
      <p>This class is used to create a TCP server.</p>
      <h3>Event: <code>'close'</code></h3><p>Emitted when the server closes.</p>
      <h3>Event: <code>'listening'</code></h3><ul><li><code>port</code></li></ul><p>Emitted when bound.</p>
      <h3><code>server.close([callback])</code></h3><p>Stops the server.</p>`;
    const named: ExtractionSchema = {
      type: 'object',
      properties: {
        events: { type: 'array', items: { type: 'object', properties: { name: text, description: text } } },
        classes: { type: 'array', items: { type: 'object', properties: { name: text, description: text } } },
      },
    };
    // Without a schema: the items of each kind the query names, by the kind's plural.
    const { lists } = await dataOf(html, undefined, 'the events and the classes');
    expect(JSON.parse(JSON.stringify(lists))).toEqual({
      events: [
        { name: 'close', description: 'Emitted when the server closes.' },
        { name: 'listening', description: 'Emitted when bound.' },
      ],
      // A class carries its members: the items under its heading.
      classes: [
        {
          name: 'net.Server',
          description: 'This class is used to create a TCP server.',
          event: [
            { name: 'close', description: 'Emitted when the server closes.' },
            { name: 'listening', description: 'Emitted when bound.' },
          ],
          method: {
            name: 'server.close',
            signature: 'server.close([callback])',
            parameter: { name: 'callback' },
            description: 'Stops the server.',
          },
        },
      ],
    });
    expect(await dataOf(html, named, 'the events of the server')).toEqual({
      events: [
        { name: 'close', description: 'Emitted when the server closes.' },
        { name: 'listening', description: 'Emitted when bound.' },
      ],
      classes: [{ name: 'net.Server', description: 'This class is used to create a TCP server.' }],
    });
  });

  it("answers a function's parameters by their names, for a query about it or as a property of each", async () => {
    const args: ExtractionSchema = {
      type: 'object',
      properties: { arguments: { type: 'array', items: text }, summary: text },
    };
    expect(await dataOf(nodeShaped, args, 'the arguments of fs.readFile')).toEqual({
      arguments: ['path', 'options', 'callback'],
      summary: readFile.description,
    });
    const withParameters: ExtractionSchema = {
      type: 'object',
      properties: {
        functions: {
          type: 'array',
          items: { type: 'object', properties: { name: text, parameters: { type: 'array', items: text } } },
        },
      },
    };
    expect(await dataOf(nodeShaped, withParameters)).toEqual({
      functions: [
        { name: 'fs.access', parameters: ['path', 'mode', 'callback'] },
        { name: 'fs.readFile', parameters: ['path', 'options', 'callback'] },
      ],
    });
  });

  it('leaves permalink marks out of headings and terms', async () => {
    const html = `<h2>Notes<a class="headerlink" href="#notes">¶</a></h2><p>Short note.</p><h2>API</h2>
      <dl><dt id="json.dumps">json.dumps(obj)<a class="headerlink" href="#json.dumps">¶</a></dt><dd><p>Serialize obj.</p></dd>
      <dt>Issue<a href="#issue">#</a></dt><dd>Tracked.</dd></dl>`;
    const data = await dataOf(html, undefined, 'the notes');
    // A label's remark in parentheses is left out of it: the term is keyed "json.dumps".
    expect(data.facts).toMatchObject({
      Notes: 'Short note.',
      'json.dumps': 'Serialize obj.',
      Issue: 'Tracked.',
    });
    expect(await dataOf(html, functionsSchema())).toEqual({
      functions: [{ name: 'json.dumps', signature: 'json.dumps(obj)', description: 'Serialize obj.' }],
    });
  });

  it("keeps a SYNOPSIS code block's lines, in a schema's text property and in a query's fields", async () => {
    const html = `<h2>SYNOPSIS</h2><div class="verseblock"><pre class="content"><em>git add</em> [--verbose | -v]
          [--] [&lt;pathspec&gt;&#8230;]</pre></div><h2>DESCRIPTION</h2><p>Adds.</p><p>More.</p>`;
    const usage = 'git add [--verbose | -v]\n          [--] [<pathspec>…]';
    expect(await dataOf(html, { type: 'object', properties: { synopsis: text } })).toEqual({
      synopsis: usage,
    });
    expect((await dataOf(html, undefined, 'the synopsis')).fields).toEqual({ synopsis: usage });
    // A one-line meaning (a title) is one line.
    expect(
      await dataOf(html, {
        type: 'object',
        properties: { headline: { type: 'string', description: 'the synopsis' } },
      }),
    ).not.toHaveProperty('headline', usage);
  });
});

describe('DefaultExtractionEngine on a JSON body', () => {
  it('reads the JSON document as structured data', async () => {
    const body = JSON.stringify({
      product: { title: 'Lamp', pricing: { amount: '19.90', currency: 'CHF' } },
    });
    const schema: ExtractionSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } },
    };
    expect(await dataOf(body, schema)).toEqual({ name: 'Lamp', price: 19.9, currency: 'CHF' });
  });
});

describe('DefaultExtractionEngine on real API reference sections: parameters, return values, methods', () => {
  /** A section cut verbatim from a real reference page (`test/fixtures/api-reference/README.md`), as a page. */
  const page = (...names: string[]) =>
    `<!doctype html><html><head><title>Reference</title></head><body>${names
      .map((n) => readFileSync(new URL(`../../test/fixtures/api-reference/${n}`, import.meta.url), 'utf8'))
      .join('')}</body></html>`;
  const str = { type: 'string' } as const;
  const typed: ExtractionSchema = {
    type: 'object',
    properties: {
      parameters: {
        type: 'array',
        items: { type: 'object', properties: { name: str, type: str, description: str } },
      },
      returnType: str,
      returns: str,
    },
  };

  it('answers parameters as objects with their types and descriptions, the return type and the return value', async () => {
    const gtk = await dataOf(page('gtkdoc-applyuser.html'), typed, 'xsltApplyStylesheetUser');
    expect(gtk.returnType).toBe('xmlDocPtr');
    expect(gtk.returns).toBe('the result document or NULL in case of error');
    expect((gtk.parameters as unknown[])[2]).toEqual({
      name: 'params',
      type: 'const char **',
      description: 'a NULL terminated array of parameters names/values tuples',
    });
    const node = await dataOf(page('node-readfile.html'), typed, 'fsPromises.readFile');
    expect(node).toEqual({
      parameters: [
        { name: 'path', type: 'string | Buffer | URL | FileHandle', description: 'filename or FileHandle' },
        { name: 'options', type: 'Object | string' },
      ],
      returnType: 'Promise',
      returns: 'Fulfills with the contents of the file.',
    });
    // A return value as an object; names alone still answer a list of strings.
    const both: ExtractionSchema = {
      type: 'object',
      properties: {
        arguments: { type: 'array', items: str },
        returns: { type: 'object', properties: { type: str, description: str } },
      },
    };
    expect(await dataOf(page('sphinx-clock_gettime.html'), both, 'time.clock_gettime')).toEqual({
      arguments: ['clk_id'],
      returns: { type: 'float' },
    });
  });

  it("answers a class's methods, and each function's return type in a list of functions", async () => {
    const html = page('sphinx-jsondecoder.html', 'sphinx-clock_gettime.html');
    const methods: ExtractionSchema = {
      type: 'object',
      properties: {
        methods: { type: 'array', items: { type: 'object', properties: { name: str, description: str } } },
      },
    };
    const data = await dataOf(html, methods, 'the methods of json.JSONDecoder');
    expect((data.methods as { name: string }[]).map((m) => m.name)).toEqual(['decode', 'raw_decode']);
    const { lists } = await dataOf(html, undefined, 'the methods of json.JSONDecoder');
    expect((lists as { methods: { signature: string }[] }).methods.map((m) => m.signature)).toEqual([
      'decode(s)',
      'raw_decode(s)',
    ]);
    const functions: ExtractionSchema = {
      type: 'object',
      properties: {
        functions: {
          type: 'array',
          items: { type: 'object', properties: { name: str, returnType: str } },
        },
      },
    };
    expect(await dataOf(html, functions)).toMatchObject({
      functions: [
        { name: 'decode' },
        { name: 'raw_decode' },
        { name: 'time.clock_gettime', returnType: 'float' },
      ],
    });
  });
});
