import { describe, expect, it } from 'vitest';
import { html, trustedHtml } from '../../../src/sandbox/http/html.js';

describe('html', () => {
  it('escapes every interpolated string, in content and attributes', () => {
    const name = `<script>alert("x")</script>' & co`;
    expect(String(html`<p title="${name}">${name}</p>`)).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; co">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; co</p>',
    );
  });

  it('passes nested templates and trusted markup through once, without escaping them again', () => {
    const inner = html`<b>${'a&b'}</b>`;
    expect(String(html`<p>${inner}${trustedHtml('<i>ok</i>')}</p>`)).toBe('<p><b>a&amp;b</b><i>ok</i></p>');
  });

  it('renders lists item by item and nothing for false, null and undefined', () => {
    const items = ['<x>', html`<li>y</li>`, 3];
    expect(String(html`<ul>${items}${false}${null}${undefined}</ul>`)).toBe('<ul>&lt;x&gt;<li>y</li>3</ul>');
  });
});
