import { css, html, LitElement } from 'lit';

/**
 * The floor: a bare Lit element with four labelled inputs, the least a Lit card form can be. Used
 * as the size baseline and as the first-render baseline page. It announces its first render with
 * `floor-ready`, as `<satang-checkout>` does with `satang-ready`.
 */
export class LitFloor extends LitElement {
  static override styles = css`
    :host {
      display: block;
      font-family: system-ui, sans-serif;
    }
    label {
      display: block;
      margin-top: 8px;
    }
    input {
      display: block;
      width: 100%;
      box-sizing: border-box;
      height: 40px;
    }
  `;

  protected override firstUpdated(): void {
    this.dispatchEvent(new Event('floor-ready', { bubbles: true, composed: true }));
  }

  protected override render() {
    return html`<label for="number">Card number</label><input id="number" autocomplete="cc-number" inputmode="numeric" />
      <label for="expiry">Expiry date</label><input id="expiry" autocomplete="cc-exp" inputmode="numeric" />
      <label for="cvc">Security code</label><input id="cvc" autocomplete="cc-csc" inputmode="numeric" />
      <label for="holder">Name on card</label><input id="holder" autocomplete="cc-name" />`;
  }
}

customElements.define('lit-floor', LitFloor);

declare global {
  interface HTMLElementTagNameMap {
    'lit-floor': LitFloor;
  }
}
