import { authorizationRoutes } from './authorizations/authorization-routes.js';
import { SandboxAuthorizations } from './authorizations/card-authorizations.js';
import { SandboxBolt, type SandboxBoltOptions } from './bolt/bolt.js';
import { boltRoutes } from './bolt/bolt-routes.js';
import { chargeRoutes } from './charges/charge-routes.js';
import { SandboxPayments } from './charges/sandbox-payments.js';
import { SandboxDashboard } from './dashboard/dashboard.js';
import { sandboxDashboardSections } from './dashboard/dashboard-sections.js';
import { SANDBOX_DEFAULTS, SANDBOX_MAX_BODY_BYTES, SANDBOX_MAX_UPLOAD_BYTES, SANDBOX_REFUND_SETTLE_DELAY_MS } from './defaults.js';
import { faultRoutes } from './faults/fault-routes.js';
import { FAULT_RULES, SandboxFaults } from './faults/sandbox-faults.js';
import { hostedPageRoutes } from './hosted-pages/hosted-page-routes.js';
import { HostedSteps } from './hosted-pages/hosted-steps.js';
import { checkHeaderPrefix, DEFAULT_SERVICE_HEADER_PREFIX, serviceHeaders, type ServiceHeaders } from '../core/constants.js';
import { SandboxDispatcher } from './http/dispatcher.js';
import { IDEMPOTENCY_KEYS, IdempotencyStore } from './http/idempotency.js';
import { publicRoute, type SandboxRoute } from './http/route.js';
import { jsonResponse } from './http/sandbox-error.js';
import { authenticatedMerchantId, type SandboxPartner } from './partners/authenticate.js';
import { defaultSandboxMerchant, type SandboxMerchant } from './partners/sandbox-merchant.js';
import { paymentLinkRoutes } from './payment-links/payment-link-routes.js';
import { SandboxPaymentLinks } from './payment-links/payment-links.js';
import { SandboxQrSlips } from './slips/qr-slips.js';
import { slipRoutes } from './slips/slip-routes.js';
import { SANDBOX_MAX_CHARGES, SandboxStore } from './store/sandbox-store.js';
import { WEBHOOK_DELIVERIES, WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/webhook-dispatcher.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';

export { REPLAYED_HEADER } from './http/dispatcher.js';
export { defaultSandboxMerchant } from './partners/sandbox-merchant.js';

/** How to set up a sandbox. Everything is optional: the defaults are {@link SANDBOX_DEFAULTS}. */
export interface SandboxOptions {
  /** Merchants and their keys; one default merchant when omitted. */
  merchants?: SandboxMerchant[];
  /** Partners whose keys act for the merchants that name them; one default partner when omitted. */
  partners?: SandboxPartner[];
  /** Where webhooks go and the base64 key that signs them; no webhooks without a URL. */
  webhook?: { url?: string | undefined; webhookKeyBase64?: string | undefined } & Omit<WebhookDispatcherOptions, 'url' | 'webhookKeyBase64' | 'log'>;
  /**
   * Origin written into redirect URLs of hosted pages (e.g. `http://localhost:4010`). By default
   * the origin the request was made to.
   */
  publicUrl?: string;
  /** Clock, for tests that travel in time (QR expiry, token expiry). */
  now?: () => Date;
  /**
   * Largest request body read, JSON and page forms alike (default {@link SANDBOX_MAX_BODY_BYTES});
   * a larger one gets 413 as soon as it passes the cap, and nothing is kept of it.
   */
  maxBodyBytes?: number;
  /** Largest slip verification body, picture included (default {@link SANDBOX_MAX_UPLOAD_BYTES}). */
  maxUploadBytes?: number;
  /**
   * Most charges kept (default {@link SANDBOX_MAX_CHARGES}); past it the oldest is forgotten with
   * its refunds and transactions (reading it then answers 404), so memory stays bounded however
   * long the sandbox runs.
   */
  maxCharges?: number;
  /** Delay before a refund leaves PENDING. */
  refundSettleDelayMs?: number;
  /**
   * Bolt devices each merchant has registered (by merchant id; three devices by default, see
   * `SANDBOX_BOLT_DEVICES`) and how long a device takes to answer a health check.
   */
  bolt?: SandboxBoltOptions;
  /** Logs one line per request when given. */
  log?: (line: string) => void;
  /**
   * Prefix of the service's headers the sandbox reads (idempotency key, partner id) and writes
   * (request id, webhook event and signature): `X-Beam-`, the live service's, by default, so a
   * client written for the live service runs against it unchanged. Matched case-insensitively.
   */
  headerPrefix?: string;
  /** Told once per header name when a request sends its idempotency key under another prefix; `console.warn` by default. */
  warn?: (line: string) => void;
  /**
   * Whether the dashboard at `/sandbox/dashboard` is served (default true). It asks for a
   * merchant id and API key, so it shows no more than the API does; `false` removes it entirely.
   */
  dashboard?: boolean;
}

/**
 * A local, in-memory emulator of the payment service. `fetch` answers a `Request` exactly as the
 * service would (same paths, auth, bodies, errors and idempotency) and serves the hosted pages a
 * shopper is sent to. Use it in tests directly, or behind a socket with `listenSandbox`.
 *
 * This is where the sandbox is put together: one store, the features built on it, and one route
 * table made of every feature's routes.
 */
export class Sandbox {
  readonly store: SandboxStore;
  readonly payments: SandboxPayments;
  readonly authorizations: SandboxAuthorizations;
  readonly paymentLinks: SandboxPaymentLinks;
  readonly webhooks: WebhookDispatcher;
  /** Bolt intents, bolt devices and the bolt pages. */
  readonly bolt: SandboxBolt;
  /** Bank transfer slips of QR charges and their verification. */
  readonly qrSlips: SandboxQrSlips;
  /**
   * Fault injection: rules that make requests fail as a network or a failing service would. Rules
   * added here spoil every request; those a merchant adds through `/sandbox/v1/faults`, only its own.
   */
  readonly faults: SandboxFaults;
  readonly merchants: ReadonlyMap<string, SandboxMerchant>;
  readonly partners: ReadonlyMap<string, SandboxPartner>;
  /** The header names it reads and writes, under its `headerPrefix`. */
  readonly headers: ServiceHeaders;
  readonly #dispatcher: SandboxDispatcher;

  constructor(options: SandboxOptions = {}) {
    const now = options.now ?? (() => new Date());
    this.store = new SandboxStore({ maxCharges: checkMaxCharges(options.maxCharges) });
    const headers = serviceHeaders(checkHeaderPrefix(options.headerPrefix ?? DEFAULT_SERVICE_HEADER_PREFIX));
    this.headers = headers;
    const merchants = options.merchants ?? [defaultSandboxMerchant()];
    const partners = options.partners ?? [{ partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey }];
    this.merchants = new Map(merchants.map((m) => [m.merchantId, m]));
    this.partners = new Map(partners.map((p) => [p.partnerId, p]));
    const maxBodyBytes = options.maxBodyBytes ?? SANDBOX_MAX_BODY_BYTES;
    const maxUploadBytes = options.maxUploadBytes ?? SANDBOX_MAX_UPLOAD_BYTES;
    const store = this.store;

    this.webhooks = new WebhookDispatcher({ ...options.webhook, now, headers, log: store.slice(WEBHOOK_DELIVERIES) });
    this.faults = new SandboxFaults(
      now,
      options.log,
      store.slice(FAULT_RULES),
      (request) => authenticatedMerchantId(request, this.merchants, this.partners, headers),
      headers.idempotencyKey,
    );
    this.payments = new SandboxPayments({
      store,
      webhooks: this.webhooks,
      now,
      refundSettleDelayMs: options.refundSettleDelayMs ?? SANDBOX_REFUND_SETTLE_DELAY_MS,
      defaultBillerId: SANDBOX_DEFAULTS.promptPayBillerId,
      defaultMerchantName: SANDBOX_DEFAULTS.merchantName,
    });
    this.authorizations = new SandboxAuthorizations({ payments: this.payments, webhooks: this.webhooks, now });
    this.qrSlips = new SandboxQrSlips({ payments: this.payments, now });
    const steps = new HostedSteps(this.payments, now, this.merchants);
    steps.addSteps((id) => this.authorizations.hostedStep(id));
    this.bolt = new SandboxBolt({ store, payments: this.payments, webhooks: this.webhooks, now, merchants: this.merchants, options: options.bolt });
    this.paymentLinks = new SandboxPaymentLinks({ payments: this.payments, webhooks: this.webhooks, merchants: this.merchants, now });

    const dashboard =
      options.dashboard === false
        ? undefined
        : new SandboxDashboard({
            store,
            merchants: this.merchants,
            now,
            maxBodyBytes,
            publicUrl: options.publicUrl,
            sections: sandboxDashboardSections({
              payments: this.payments,
              authorizations: this.authorizations,
              webhooks: this.webhooks,
              pages: steps,
              paymentLinks: this.paymentLinks,
              bolt: this.bolt,
            }),
          });

    const routes: SandboxRoute[] = [
      ...slipRoutes(this.qrSlips, this.payments, { maxBodyBytes, maxUploadBytes }),
      ...chargeRoutes(this.payments),
      ...authorizationRoutes(this.authorizations),
      ...paymentLinkRoutes({ links: this.paymentLinks, payments: this.payments, now, maxBodyBytes }),
      ...boltRoutes({ bolt: this.bolt, maxBodyBytes }),
      ...(dashboard?.routes() ?? []),
      ...webhookRoutes(this.webhooks),
      ...faultRoutes(this.faults),
      ...hostedPageRoutes({ steps, payments: this.payments, now, maxBodyBytes }),
      publicRoute('GET', '/sandbox/health', () => jsonResponse(200, { status: 'ok' })),
    ];
    this.#dispatcher = new SandboxDispatcher({
      routes,
      merchants: this.merchants,
      partners: this.partners,
      idempotency: new IdempotencyStore(now, store.slice(IDEMPOTENCY_KEYS)),
      maxBodyBytes,
      publicUrl: options.publicUrl,
      headers,
      faults: this.faults,
      log: options.log,
      warn: options.warn,
    });
  }

  /**
   * Answers one request. Never throws: every fault becomes the service's error body, except the
   * faults injected on purpose with {@link faults} (a `reset` rejects as a dropped connection does).
   */
  fetch = (request: Request): Promise<Response> => this.#dispatcher.answer(request);

  /** Stops webhook retries and pending timers, so a process or a test can end. */
  close(): void {
    this.webhooks.close();
    this.payments.close();
    this.faults.close();
    this.bolt.close();
  }
}

function checkMaxCharges(value: unknown): number {
  if (value === undefined) return SANDBOX_MAX_CHARGES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new TypeError(`maxCharges must be a whole number of at least 1, not ${JSON.stringify(value)}`);
  return value;
}

/** Creates a sandbox; see {@link Sandbox}. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options);
}
