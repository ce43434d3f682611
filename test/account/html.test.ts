// The escaping template tag every server-rendered page uses: text and attribute values cannot break out.
import { describe, expect, it } from 'vitest';
import { escapeHtml, h, raw } from '../../src/account/html.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('h', () => {
  it('a value cannot leave a double-quoted attribute', () => {
    const html = h`<a title="${'x" onmouseover="alert(1)'}">t</a>`.value;
    expect(html).toBe('<a title="x&quot; onmouseover=&quot;alert(1)">t</a>');
  });

  it('a value cannot leave a single-quoted attribute', () => {
    expect(h`<a title='${"x' onclick='y"}'>t</a>`.value).toBe(`<a title='x&#39; onclick=&#39;y'>t</a>`);
  });

  it('SafeHtml and lists of it pass through; other values are escaped', () => {
    expect(h`${[raw('<b>'), '<i>', 3, null, undefined, false]}`.value).toBe('<b>&lt;i&gt;3');
  });
});
