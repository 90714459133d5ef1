import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { verifyCheckoutSlip } from '../../client/checkout-api.js';
import type { CheckoutClientError } from '../../client/client-error.js';
import type { LocalizeController } from '../controllers/localize-controller.js';
import type { MessageKey } from '../i18n/localize.js';
import { readSlipQr } from './slip-reader.js';

/**
 * Where an uploaded bank transfer slip stands: its QR code being read, none found in the picture,
 * being checked, refused as another payment's (or no payment's), or not checkable now.
 */
type SlipState = 'reading' | 'unreadable' | 'verifying' | 'mismatch' | 'unavailable';

const SLIP_MESSAGES: Record<SlipState, MessageKey> = {
  reading: 'qr.slipReading',
  unreadable: 'qr.slipNoCode',
  verifying: 'qr.slipVerifying',
  mismatch: 'qr.slipMismatch',
  unavailable: 'qr.slipUnavailable',
};

/** The element a slip is uploaded in: the charge it shows, followed through the merchant's proxy. */
interface SlipHost extends ReactiveControllerHost {
  readonly endpoint: string;
  readonly chargeId: string;
  readonly statusToken: string;
}

/**
 * The slip upload of `<satang-qr-payment>`, for a shopper who paid by bank transfer: the picker,
 * where the slip stands, and the check with the merchant's proxy. Only the text of the slip's QR
 * code leaves the page, and it is kept nowhere (no attribute, event or storage).
 */
export class SlipUpload implements ReactiveController {
  #state: SlipState | undefined;
  /** Counts uploads, so an answer for an earlier one (or another charge) is dropped. */
  #attempt = 0;
  #request: AbortController | undefined;

  constructor(
    private readonly host: SlipHost,
    private readonly localize: LocalizeController,
    /** Reads each step out to screen readers. */
    private readonly announce: (text: string) => void,
    /** The slip proved the charge paid. */
    private readonly onPaid: (chargeId: string, orderOutcome: string | undefined) => void,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.cancel();
  }

  /** Drops the upload under way, if any, so the picker is usable again. */
  cancel(): void {
    this.#attempt += 1;
    this.#request?.abort();
    this.#request = undefined;
    if (this.#state === 'reading' || this.#state === 'verifying') this.#show(undefined);
  }

  /** Forgets everything of the slip: the element shows another charge. */
  reset(): void {
    this.cancel();
    this.#show(undefined);
  }

  /**
   * The picker and where the slip stands, offered only where the charge is followed through the
   * proxy, and quietly: beside a new QR code the shopper has a code to scan, not a slip. A closed
   * disclosure, "Paid but the page hasn't updated?", holds the picker until the shopper opens it;
   * it stays open while a slip is read or checked, or was not accepted, and closes for another
   * charge.
   */
  view() {
    const { endpoint, chargeId, statusToken } = this.host;
    if (!endpoint || !chargeId || !statusToken) return nothing;
    const state = this.#state;
    const busy = state === 'reading' || state === 'verifying';
    const l = this.localize;
    // No `capture`: a phone offers its camera and its saved pictures (where banking apps put slips) alike.
    return html`<details class="slip" ?open=${Boolean(state)}>
      <summary class="muted">${l.msg('qr.slipAsk')}</summary>
      <p class="muted">${l.msg('qr.slipHint')}</p>
      <label part="slip-button" class="slip-button">
        <input class="visually-hidden" type="file" accept="image/*" ?disabled=${busy} aria-describedby=${state ? 'slip-status' : nothing} @change=${this.#onChange} />
        ${l.msg('qr.slipUpload')}
      </label>
      ${state ? html`<p part="slip-status" id="slip-status" class=${busy ? 'status' : 'error'}>${l.msg(SLIP_MESSAGES[state])}</p>` : nothing}
    </details>`;
  }

  #onChange = async (event: Event): Promise<void> => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared, so that choosing the same picture again is a change too.
    input.value = '';
    if (!file) return;
    this.cancel();
    const attempt = this.#attempt;
    const { endpoint, chargeId, statusToken } = this.host;
    this.#step('reading');
    const raw = await readSlipQr(file);
    if (attempt !== this.#attempt) return;
    if (!raw) {
      this.#step('unreadable');
      return;
    }
    this.#step('verifying');
    const request = (this.#request = new AbortController());
    let outcome: string | undefined;
    try {
      ({ outcome } = await verifyCheckoutSlip(endpoint, chargeId, statusToken, raw, request.signal));
    } catch (error) {
      if (attempt !== this.#attempt) return;
      // INVALID_REQUEST: a QR code far longer than a slip's, some other kind of code.
      const code = (error as CheckoutClientError).code;
      this.#step(code === 'SLIP_MISMATCH' || code === 'SLIP_NOT_FOUND' || code === 'INVALID_REQUEST' ? 'mismatch' : 'unavailable');
      return;
    }
    if (attempt !== this.#attempt) return;
    this.#request = undefined;
    this.#show(undefined);
    this.onPaid(chargeId, outcome);
  };

  #step(state: SlipState): void {
    this.#show(state);
    this.announce(this.localize.msg(SLIP_MESSAGES[state]));
  }

  #show(state: SlipState | undefined): void {
    this.#state = state;
    this.host.requestUpdate();
  }
}
