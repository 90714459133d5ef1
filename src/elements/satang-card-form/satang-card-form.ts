import { html, LitElement, nothing, svg, type PropertyValues } from 'lit';
import { securityCodeLength, type CardBrand } from '../../core/card.js';
import type { CardField } from '../../core/card-rules.js';
import type { TokenizeConfig } from '../../client/card-tokens.js';
import { SatangChangeEvent, SatangReadyEvent } from '../events.js';
import { afterPaint, lazyModule } from '../lazy.js';
import { LocalizeController } from '../controllers/localize-controller.js';
import { cardMessages } from '../i18n/card.js';
import type { Locale, MessageKey } from '../i18n/localize.js';
import { styles } from './satang-card-form.styles.js';

/** The formatting, the rules, their messages and the tokenization call: needed once digits are typed, so fetched after the first render. */
const extras = lazyModule(() => import('./card-form-extras.js'));
/** The brands' marks, data only: the same file for every entry. */
const brandMarks = lazyModule(() => import('../marks/card-brand-marks.js'));

/** A card ready to charge: the token and the CVC that goes with it (never stored, never in an event). */
export interface TokenizedCard {
  cardTokenId: string;
  securityCode: string;
  brand: CardBrand;
  last4: string;
}

const FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'holderName'];
const AUTOCOMPLETE: Record<CardField, string> = { number: 'cc-number', expiry: 'cc-exp', cvc: 'cc-csc', holderName: 'cc-name' };

/** The first field, in the form's order, that shows an error, with its error. */
function firstError(errors: Partial<Record<CardField, MessageKey>>): [CardField, MessageKey] | undefined {
  for (const field of FIELDS) {
    const error = errors[field];
    if (error) return [field, error];
  }
  return undefined;
}

/**
 * @summary Card entry: number, expiry, security code and name, validated as the shopper types,
 * tokenized straight with the payment service. The card data lives only in this element's shadow
 * inputs: it is never put on a property, an attribute, an event or storage.
 *
 * Errors show on blur and on submit and go away as soon as the field is fixed. The element is
 * form-associated: inside a `<form>`, its value is the card token once `tokenize()` has run.
 *
 * @event {SatangChangeEvent} satang-change - The card details changed; `complete` says whether they are all valid.
 * @event {SatangReadyEvent} satang-ready - First rendered.
 *
 * @csspart form - The group of fields.
 * @csspart field - Each field's wrapper.
 * @csspart label - Each label.
 * @csspart input - Each input.
 * @csspart hint - The hints under labels.
 * @csspart error - The error messages.
 * @csspart brand - The detected card brand: its mark (Visa, Mastercard, JCB, American Express, UnionPay), or its name.
 *
 * @cssprop [--satang-color-card-brand=#ffffff] - Behind a card brand's mark in the number field (the brands draw their
 *   marks for white).
 */
export class SatangCardForm extends LitElement {
  static readonly tagName = 'satang-card-form';
  static formAssociated = true;
  static override styles = styles;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    locale: {},
    disabled: { type: Boolean, reflect: true },
    errors: { state: true },
    brand: { state: true },
    announcement: { state: true },
    announcementCount: { state: true },
    formDisabled: { state: true },
    extras: { state: true },
    marks: { state: true },
  };

  /** th or en (`th-TH` and the like read by their language); by default the language of the page. @type {'th' | 'en' | undefined} */
  locale: string | undefined;
  /** Disables every field (e.g. while a payment is running). */
  disabled = false;

  private errors: Partial<Record<CardField, MessageKey>> = {};
  private brand: CardBrand = 'UNKNOWN';
  private announcement = '';
  /**
   * Counts announcements: every other one ends in a no-break space, so the same message said twice
   * still changes the live region and is read again.
   */
  private announcementCount = 0;
  /** Disabled by a `<fieldset disabled>` around it or its own attribute, as the form reports it. */
  private formDisabled = false;
  /** The rules' messages and the brands' marks, once fetched; until then an invalid field shows only as invalid. */
  private extras: typeof import('./card-form-extras.js') | undefined;
  /** The brands' marks, once fetched. */
  private marks: typeof import('../marks/card-brand-marks.js') | undefined;

  private get numberInput(): HTMLInputElement | null {
    return this.renderRoot.querySelector('#number');
  }

  readonly #internals: ElementInternals;
  readonly #localize = new LocalizeController(this, cardMessages);
  /** The language the validity message was last written in. */
  #validityLocale: Locale | undefined;
  readonly #touched = new Set<CardField>();
  #complete = false;
  /** The token of the details as they are now; dropped as soon as any field changes. */
  #token: TokenizedCard | undefined;

  constructor() {
    super();
    this.#internals = this.attachInternals();
  }

  /** Whether the card rules are here: until then `validate()` answers false without checking. */
  get ready(): boolean {
    return Boolean(this.extras);
  }

  /** Whether every field is valid right now. */
  get complete(): boolean {
    return this.#complete;
  }

  #input(field: CardField): HTMLInputElement | null {
    return this.renderRoot.querySelector(`#${field === 'holderName' ? 'holder' : field}`);
  }

  #value(field: CardField): string {
    return this.#input(field)?.value ?? '';
  }

  /** The field's error at this moment; none while the rules are being fetched. */
  #check(field: CardField, moment: 'input' | 'blur' | 'submit'): MessageKey | undefined {
    const error = this.extras?.validateCardField(field, this.#value(field), { brand: this.brand, now: new Date() }, moment);
    return error?.messageKey;
  }

  /**
   * Resolves once the card rules are here (fetched right after the first render): `validate()`
   * and `complete` need them. `tokenize()` waits for them itself.
   */
  async whenReady(): Promise<void> {
    if (!this.extras) this.#useExtras(await extras());
  }

  /**
   * The formatting and the rules are here. Whatever was typed before they came (an autofill, or a
   * shopper quicker than the network) is formatted now, as it would have been while typed.
   */
  #useExtras(code: typeof import('./card-form-extras.js')): void {
    if (this.extras) return;
    this.extras = code;
    for (const field of FIELDS) {
      const input = this.#input(field);
      if (input?.value) this.brand = code.formatInput(field, input, this.brand, false);
    }
    this.#syncValidity();
  }

  /**
   * Shows every error, moves focus to the first invalid field and announces what is wrong.
   * Answers whether the card can be tokenized.
   */
  validate(): boolean {
    if (!this.extras) {
      // Not fetched yet (a press within moments of the first render): not valid until checked.
      void this.whenReady().then(() => this.#syncValidity());
      return false;
    }
    const errors: Partial<Record<CardField, MessageKey>> = {};
    for (const field of FIELDS) {
      this.#touched.add(field);
      const error = this.#check(field, 'submit');
      if (error) errors[field] = error;
    }
    this.errors = errors;
    const first = firstError(errors);
    this.#syncValidity();
    if (!first) return true;
    const [field, error] = first;
    this.#input(field)?.focus();
    this.announcement = this.#localize.msg(error, this.#params(field));
    this.announcementCount += 1;
    return false;
  }

  /**
   * Validates, then creates a card token with the service (publishable key) and answers it with
   * the CVC for the charge. Asked twice for the same details, it answers the same token: a retried
   * payment attempt must send exactly what it sent before.
   */
  async tokenize(config: TokenizeConfig, signal?: AbortSignal): Promise<TokenizedCard> {
    await this.whenReady();
    if (!this.validate()) throw new Error('card details are not valid');
    if (this.#token) return this.#token;
    const { createCardToken, parseExpiry, normalizeDigits } = await extras();
    const number = normalizeDigits(this.#value('number'));
    const expiry = parseExpiry(this.#value('expiry'), new Date());
    if ('error' in expiry) throw new Error('card expiry is not valid');
    const cardTokenId = await createCardToken(
      config,
      {
        pan: number,
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cardHolderName: this.#value('holderName').trim(),
      },
      signal,
    );
    this.#token = { cardTokenId, securityCode: normalizeDigits(this.#value('cvc')), brand: this.brand, last4: number.slice(-4) };
    this.#internals.setFormValue(cardTokenId);
    return this.#token;
  }

  /**
   * Forgets the token of the current details, keeping what was entered: a card token is spent by
   * one charge, so the next payment attempt needs a new one.
   */
  clearToken(): void {
    this.#token = undefined;
    this.#internals.setFormValue(null);
  }

  /**
   * Clears the security code (and the token made with it), keeping the rest: after a declined
   * payment the shopper types it again rather than the whole card, and the field says so (invalid,
   * "Enter the security code") while the card number is still there.
   */
  clearSecurityCode(): void {
    const input = this.#input('cvc');
    if (input) input.value = '';
    this.clearToken();
    // Still needed to pay with the card kept: marked so (invalid, with its message) until typed.
    this.#setError('cvc', this.#value('number') ? 'cvc.required' : undefined);
    this.#syncValidity();
  }

  /** Clears every field, error and token. */
  reset(): void {
    for (const field of FIELDS) {
      const input = this.#input(field);
      if (input) input.value = '';
    }
    this.#touched.clear();
    this.#token = undefined;
    this.errors = {};
    this.brand = 'UNKNOWN';
    this.announcement = '';
    this.#internals.setFormValue(null);
    this.#syncValidity();
  }

  formResetCallback(): void {
    this.reset();
  }

  /**
   * Kept apart from `disabled`: reflecting it there would set the element's own `disabled`
   * attribute, which keeps it disabled after the fieldset is enabled again.
   */
  formDisabledCallback(disabled: boolean): void {
    this.formDisabled = disabled;
  }

  /**
   * `disabled` goes to the attribute before the render rather than after it, where Lit reflects
   * it: the attribute calls `formDisabledCallback` at once, and a call heard after the render was
   * lost (`disabled = false` left the fields disabled).
   */
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('disabled')) this.toggleAttribute('disabled', this.disabled);
  }

  override focus(options?: FocusOptions): void {
    this.numberInput?.focus(options);
  }

  protected override firstUpdated(): void {
    this.#syncValidity();
    this.dispatchEvent(new SatangReadyEvent());
    afterPaint(() => {
      extras().then(
        (code) => this.#useExtras(code),
        () => undefined, // The fields still show whether they are valid.
      );
      brandMarks().then(
        (marks) => (this.marks = marks),
        () => undefined, // The brand's name is shown instead.
      );
    });
  }

  /** Enter in a field submits the form the element is in, as in a native form. */
  #onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.isComposing) this.#internals.form?.requestSubmit();
  }

  #onInput(field: CardField, event: Event): void {
    const input = event.target as HTMLInputElement;
    // Formatted as typed once the formatting is here, moments after the first render; text typed
    // sooner is formatted as it arrives (#useExtras).
    const deleting = event instanceof InputEvent && event.inputType.startsWith('delete');
    if (this.extras) this.brand = this.extras.formatInput(field, input, this.brand, deleting);
    this.#token = undefined;
    this.#internals.setFormValue(null);
    // A shown error goes as soon as the field is fixed, and until then says what is wrong now (a
    // number that was short and now fails Luhn); a new one shows while typing only when it is
    // certain whatever comes next (a full-length number that fails Luhn).
    const shown = this.errors[field];
    this.#setError(field, this.#check(field, 'input') ?? (shown ? this.#check(field, 'submit') : undefined));
    this.#syncValidity();
  }

  #onBlur(field: CardField, event: FocusEvent): void {
    if (this.#value(field) === '' && !this.#touched.has(field)) return;
    this.#touched.add(field);
    // Focus leaving for a button (the pay button, as it is pressed): that press validates the
    // whole form. An error shown now would push the button from under the pointer mid-click.
    if (event.relatedTarget instanceof HTMLButtonElement && this.errors[field] === undefined) return;
    this.#setError(field, this.#check(field, 'blur'));
    this.#syncValidity();
  }

  #setError(field: CardField, error: MessageKey | undefined): void {
    if (this.errors[field] === error) return;
    const { [field]: _old, ...rest } = this.errors;
    this.errors = error ? { ...rest, [field]: error } : rest;
  }

  #syncValidity(): void {
    this.#validityLocale = this.#localize.locale;
    const complete = Boolean(this.extras) && FIELDS.every((f) => !this.#check(f, 'submit'));
    const first = firstError(this.errors);
    if (first) {
      const [field, error] = first;
      this.#internals.setValidity({ customError: true }, this.#localize.msg(error, this.#params(field)), this.#input(field) ?? undefined);
    } else if (!complete) {
      this.#internals.setValidity({ valueMissing: true }, this.#localize.msg('number.required'), this.numberInput ?? undefined);
    } else {
      this.#internals.setValidity({});
    }
    const states = this.#internals.states;
    if (first) states.add('user-invalid');
    else states.delete('user-invalid');
    if (complete !== this.#complete) {
      this.#complete = complete;
      this.dispatchEvent(new SatangChangeEvent('CARD_TOKEN', complete));
    }
  }

  #params(field: CardField): Record<string, number> {
    return field === 'cvc' ? { n: securityCodeLength(this.brand) } : {};
  }

  /**
   * The validity message is in the language shown, which may change with the `locale` attribute or
   * a `lang` around the element: written again after a render in another language, it follows.
   */
  protected override updated(): void {
    if (this.#localize.locale !== this.#validityLocale) this.#syncValidity();
  }

  /** The detected brand at the number: its mark, or its name until the marks are here (or when it has none). */
  #brandView() {
    const mark = this.marks?.cardBrandMark(this.brand);
    return html`<span part="brand" class="brand ${mark ? 'logo' : ''}" aria-hidden="true"
      >${mark ? html`<svg viewBox="-6 0 36 24" class="mark">${mark.map(([d, fill]) => svg`<path d=${d} fill=${fill} />`)}</svg>` : this.brand}</span
    >`;
  }

  protected override render() {
    const l = this.#localize;
    const field = (name: CardField, id: string, label: MessageKey, hint: string | undefined, attrs: { inputmode?: string; maxlength?: number }) => {
      const error = this.errors[name];
      const describedBy = [hint ? `${id}-hint` : '', error && this.extras ? `${id}-error` : ''].filter(Boolean).join(' ');
      return html`<div part="field" class="field ${name}">
        <label part="label" for=${id}>${l.msg(label)}</label>
        ${hint ? html`<div part="hint" class="hint" id="${id}-hint">${hint}</div>` : ''}
        <div class="control">
          <input
            part="input"
            id=${id}
            name=${name}
            type="text"
            autocomplete=${AUTOCOMPLETE[name]}
            inputmode=${attrs.inputmode ?? 'text'}
            maxlength=${attrs.maxlength ?? 100}
            spellcheck="false"
            required
            autocapitalize=${name === 'holderName' ? 'characters' : 'off'}
            ?disabled=${this.disabled || this.formDisabled}
            aria-invalid=${error ? 'true' : 'false'}
            aria-describedby=${describedBy || nothing}
            @input=${(e: Event) => this.#onInput(name, e)}
            @blur=${(event: FocusEvent) => this.#onBlur(name, event)}
            @keydown=${this.#onKeydown}
          />
          ${name === 'number' && this.brand !== 'UNKNOWN' ? this.#brandView() : ''}
        </div>
        ${error && this.extras ? html`<div part="error" class="error" id="${id}-error">${l.msg(error, this.#params(name))}</div>` : ''}
      </div>`;
    };
    const cvcHint = this.brand === 'AMEX' ? l.msg('card.cvcHintAmex') : l.msg('card.cvcHint', { n: 3 });
    return html`<div part="form" class="form" role="group" aria-label=${l.msg('card.label')}>
        ${field('number', 'number', 'card.number', undefined, { inputmode: 'numeric', maxlength: 23 })}
        <div class="row">
          ${field('expiry', 'expiry', 'card.expiry', l.msg('card.expiryHint'), { inputmode: 'numeric', maxlength: 9 })}
          ${field('cvc', 'cvc', 'card.cvc', cvcHint, { inputmode: 'numeric', maxlength: 4 })}
        </div>
        ${field('holderName', 'holder', 'card.holderName', undefined, {})}
      </div>
      <div class="visually-hidden" role="status" aria-live="polite">${this.announcement}${this.announcement && this.announcementCount % 2 === 0 ? '\u00a0' : ''}</div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'satang-card-form': SatangCardForm;
  }
}
