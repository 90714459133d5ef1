import { css, html, LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * Proves the browser set-up: tests run in Chromium, Lit's decorators keep their reactive
 * properties (useDefineForClassFields off), shadow DOM and styles apply, and qrcode loads
 * through a dynamic import as the elements load it.
 */
class SmokeGreeting extends LitElement {
  static override styles = css`
    p {
      color: rgb(11, 87, 208);
      margin: 0;
    }
  `;

  @property() name = 'world';

  override render() {
    return html`<p part="greeting">Hello, ${this.name}</p>`;
  }
}
customElements.define('smoke-greeting', SmokeGreeting);

declare global {
  interface HTMLElementTagNameMap {
    'smoke-greeting': SmokeGreeting;
  }
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('the browser project', () => {
  it('runs in a real browser', () => {
    expect(navigator.userAgent).toMatch(/Chrome\//);
    expect(typeof window.customElements.define).toBe('function');
  });

  it('renders a Lit element into shadow DOM, with its styles, and re-renders on a property change', async () => {
    const el = document.createElement('smoke-greeting');
    document.body.append(el);
    await el.updateComplete;

    const p = el.shadowRoot!.querySelector('p')!;
    expect(p.textContent).toBe('Hello, world');
    expect(getComputedStyle(p).color).toBe('rgb(11, 87, 208)');
    // The style is scoped: the same tag outside the shadow root is not blue.
    const outside = document.body.appendChild(document.createElement('p'));
    expect(getComputedStyle(outside).color).not.toBe('rgb(11, 87, 208)');

    el.name = 'Somchai';
    await el.updateComplete;
    expect(p.textContent).toBe('Hello, Somchai');

    el.setAttribute('name', 'สมชาย');
    await el.updateComplete;
    expect(p.textContent).toBe('Hello, สมชาย');
  });

  it('loads the QR library with a dynamic import, builds a QR code and reads it back', async () => {
    const { default: encodeQR } = await import('qr');
    const modules = encodeQR('hello', 'raw', { border: 4 });
    expect(modules.length).toBe(21 + 8);
    expect(modules.flat().some(Boolean)).toBe(true);
    const scale = 4;
    const side = modules.length * scale;
    const data = new Uint8ClampedArray(side * side * 4).map((_, i) => {
      const pixel = Math.floor(i / 4);
      return i % 4 === 3 || !modules[Math.floor(pixel / side / scale)]![Math.floor((pixel % side) / scale)] ? 255 : 0;
    });
    const { default: decodeQR } = await import('qr/decode.js');
    expect(decodeQR({ width: side, height: side, data })).toBe('hello');
  });
});
