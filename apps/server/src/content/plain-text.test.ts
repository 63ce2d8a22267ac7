import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from './parse-document.js';
import { elementToText } from './plain-text.js';

const textOf = (html: string) => elementToText(parseHtmlDocument(html).body);

describe('elementToText', () => {
  it('collapses inline whitespace and separates blocks', () => {
    expect(textOf('<p>  Hello,\n   <b>big</b>\tworld </p><p>Second</p>')).toBe('Hello, big world\n\nSecond');
  });
  it('puts list items and line breaks on their own lines', () => {
    expect(textOf('<ul><li>a</li><li>b <i>c</i></li></ul>x<br>y')).toBe('a\nb c\n\nx\ny');
  });
  it('keeps preformatted text verbatim', () => {
    expect(textOf('<p>Code:</p><pre>  indented\n    more</pre><p>after</p>')).toBe(
      'Code:\n\n  indented\n    more\n\nafter',
    );
  });
  it('separates table cells with tabs and rows with newlines', () => {
    expect(textOf('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td> 2 </td></tr></table>')).toBe(
      'A\tB\n1\t2',
    );
  });
  it('skips scripts, styles and templates', () => {
    expect(textOf('<p>shown</p><script>var hidden</script><style>.x{}</style><template>t</template>')).toBe(
      'shown',
    );
  });
  it('does not glue words across inline elements', () => {
    expect(textOf('<p><span>one</span> <span>two</span></p>')).toBe('one two');
  });
  it('writes a long line of many inline pieces as one line, words apart', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    expect(textOf(`<p>${words.map((word) => `<b>${word}</b> `).join('')}</p>`)).toBe(words.join(' '));
  });
  it('leaves no space before a cell tab and skips blank cells', () => {
    expect(textOf('<table><tr><td>a </td><td> </td><td>b</td></tr></table>')).toBe('a\tb');
  });
});
