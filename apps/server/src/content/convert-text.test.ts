import { describe, expect, it } from 'vitest';
import { convertText } from './convert-text.js';

describe('convertText', () => {
  it('keeps text and Markdown as they are, with title, headings and links', () => {
    const body =
      '# Release notes\n\nSee https://example.com/changes#v2, and (https://example.org/x).\n\n## Fixes\n\n- one\n';
    const page = convertText(body, 'text');
    expect(page.markdown).toBe(body);
    expect(page.text).toBe(body);
    expect(page.title).toBe('Release notes');
    expect(page.headings).toEqual(['Release notes', 'Fixes']);
    expect(page.links).toEqual(['https://example.com/changes', 'https://example.org/x']);
    expect(page.html).toBe(`<pre>${body}</pre>`);
    expect(page.canonicalUrl).toBeNull();
  });

  it('escapes text in the html form', () => {
    expect(convertText('a <b> & c', 'text').html).toBe('<pre>a &lt;b&gt; &amp; c</pre>');
  });

  it('has no title for plain text without a heading', () => {
    expect(convertText('just words\n#not a heading', 'text').title).toBeNull();
  });

  it('pretty-prints JSON in a fenced block', () => {
    const page = convertText('{"name":"x","urls":["https://e.com/a"]}', 'json');
    const pretty = '{\n  "name": "x",\n  "urls": [\n    "https://e.com/a"\n  ]\n}';
    expect(page.markdown).toBe(`\`\`\`json\n${pretty}\n\`\`\``);
    expect(page.text).toBe(pretty);
    expect(page.html).toBe(`<pre><code class="language-json">${pretty}</code></pre>`);
    expect(page.links).toEqual(['https://e.com/a']);
    expect(page.title).toBeNull();
  });

  it('keeps invalid JSON verbatim, with a fence longer than any backtick run inside', () => {
    const page = convertText('{"broken": "```" ', 'json');
    expect(page.text).toBe('{"broken": "```"');
    expect(page.markdown).toBe('````json\n{"broken": "```"\n````');
  });
});
