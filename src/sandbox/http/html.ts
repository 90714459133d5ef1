/**
 * HTML that escapes by default. Every value interpolated into an `html` template is escaped unless
 * it is itself {@link Html} (another template, or markup marked trusted with {@link trustedHtml});
 * a forgotten escape is therefore impossible, and every trusted spot is a greppable call.
 * Synchronous on purpose: a page is a plain string, never a promise.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Markup that is safe to send as is. Build it with `html`; never construct it from data. */
export class Html {
  readonly #markup: string;
  /** @internal Use `html` or `trustedHtml`. */
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

/**
 * What a template may interpolate. `false`, `null` and `undefined` render nothing, so
 * `${error && html`…`}` works; `true` is not allowed, since it would print nothing by surprise.
 * Arrays render each item, escaped the same way.
 */
export type HtmlValue = Html | string | number | bigint | false | null | undefined | readonly HtmlValue[];

/** Escapes text for element content and quoted attribute values alike. */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (value === false || value === null || value === undefined) return '';
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeText(String(value));
}

/** The tag: `html`<p>${name}</p>`` escapes `name`; nested templates pass through untouched. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/**
 * Marks markup as safe without escaping it. Only for markup the sandbox itself produced (a
 * stylesheet, an SVG drawn from numbers): every call says why in a comment.
 */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
