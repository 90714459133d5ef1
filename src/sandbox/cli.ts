import { parseArgs } from 'node:util';
import { base64Decode } from '../core/base64.js';
import { checkHeaderPrefix, DEFAULT_SERVICE_HEADER_PREFIX } from '../core/constants.js';
import { SANDBOX_DASHBOARD_PATH } from './dashboard/dashboard.js';
import { SANDBOX_DEFAULTS, SANDBOX_TEST_CARDS } from './defaults.js';
import { SANDBOX_PAGES_PATH } from './http/page-layout.js';
import { SANDBOX_MAX_CHARGES } from './store/sandbox-store.js';
import { listenSandbox } from './listen.js';
import type { SandboxPartner } from './partners/authenticate.js';
import { defaultSandboxMerchant, type SandboxMerchant } from './partners/sandbox-merchant.js';

/** Longest merchant name the CLI takes: a shop's name, not a paragraph. */
const MAX_MERCHANT_NAME_CHARS = 100;

const HELP = `satang-sandbox: a local emulator of the payment service

Usage: satang-sandbox [options]

Options (each also read from the environment variable shown):
  --port <n>               port to listen on          SANDBOX_PORT       (default ${SANDBOX_DEFAULTS.port}; 0 picks one)
  --host <host>            address to bind            SANDBOX_HOST       (default ${SANDBOX_DEFAULTS.host})
  --merchant-id <id>       merchant id                SANDBOX_MERCHANT_ID
  --merchant-name <name>   who shoppers pay: shown on the hosted pages and written
                           into QR codes             SANDBOX_MERCHANT_NAME (default ${SANDBOX_DEFAULTS.merchantName})
  --api-key <key>          merchant API key           SANDBOX_API_KEY
  --publishable-key <key>  publishable key            SANDBOX_PUBLISHABLE_KEY
  --partner-id <id>        partner id                 SANDBOX_PARTNER_ID
  --partner-key <key>      partner API key            SANDBOX_PARTNER_KEY
  --webhook-url <url>      where webhooks are sent    SANDBOX_WEBHOOK_URL (none: no webhooks)
  --webhook-key <base64>   webhook signing key        SANDBOX_WEBHOOK_KEY
  --public-url <url>       origin written into hosted-page links  SANDBOX_PUBLIC_URL
  --max-charges <n>        charges kept, oldest forgotten first  SANDBOX_MAX_CHARGES (default ${SANDBOX_MAX_CHARGES})
  --header-prefix <p>      prefix of the service's headers  SANDBOX_HEADER_PREFIX
                           (default ${DEFAULT_SERVICE_HEADER_PREFIX}, the live service's; e.g. X-Service-)
  --no-dashboard           no dashboard at ${SANDBOX_DASHBOARD_PATH}  SANDBOX_DASHBOARD=off
  --quiet                  no request log
  -h, --help               this help
`;

/** Reads flags and environment into sandbox options; throws a message a person can act on. */
export function parseCliOptions(argv: string[], env: NodeJS.ProcessEnv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'merchant-id': { type: 'string' },
      'merchant-name': { type: 'string' },
      'api-key': { type: 'string' },
      'publishable-key': { type: 'string' },
      'partner-id': { type: 'string' },
      'partner-key': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-key': { type: 'string' },
      'public-url': { type: 'string' },
      'header-prefix': { type: 'string' },
      'max-charges': { type: 'string' },
      'no-dashboard': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const pick = (flag: keyof typeof values, variable: string): string | undefined => {
    for (const value of [values[flag], env[variable]]) if (typeof value === 'string' && value !== '') return value;
    return undefined;
  };
  const isHttpUrl = (text: string) => /^https?:\/\//.test(text) && URL.canParse(text);
  const portText = pick('port', 'SANDBOX_PORT') ?? String(SANDBOX_DEFAULTS.port);
  if (!/^\d+$/.test(portText) || Number(portText) > 65_535) throw new Error(`--port must be a number from 0 to 65535, not "${portText}"`);
  const webhookUrl = pick('webhook-url', 'SANDBOX_WEBHOOK_URL');
  if (webhookUrl !== undefined && !isHttpUrl(webhookUrl)) throw new Error(`--webhook-url must be an http(s) URL, not "${webhookUrl}"`);
  const webhookKeyBase64 = pick('webhook-key', 'SANDBOX_WEBHOOK_KEY') ?? SANDBOX_DEFAULTS.webhookKeyBase64;
  try {
    if (base64Decode(webhookKeyBase64).length === 0) throw new Error('empty');
  } catch {
    throw new Error('--webhook-key must be a non-empty base64 string');
  }
  const publicUrl = pick('public-url', 'SANDBOX_PUBLIC_URL');
  if (publicUrl !== undefined && !(isHttpUrl(publicUrl) && new URL(publicUrl).origin === publicUrl.replace(/\/$/, ''))) throw new Error(`--public-url must be an origin such as http://localhost:4010, not "${publicUrl}"`);

  const maxChargesText = pick('max-charges', 'SANDBOX_MAX_CHARGES');
  if (maxChargesText !== undefined && (!/^\d+$/.test(maxChargesText) || Number(maxChargesText) < 1 || !Number.isSafeInteger(Number(maxChargesText)))) {
    throw new Error(`--max-charges must be a whole number of at least 1, not "${maxChargesText}"`);
  }
  const headerPrefixText = pick('header-prefix', 'SANDBOX_HEADER_PREFIX') ?? DEFAULT_SERVICE_HEADER_PREFIX;
  const headerPrefix = checkHeaderPrefix(headerPrefixText, '--header-prefix');

  const dashboardSetting = env.SANDBOX_DASHBOARD?.trim().toLowerCase();
  if (dashboardSetting !== undefined && dashboardSetting !== '' && !['on', 'off', 'true', 'false', '1', '0'].includes(dashboardSetting)) {
    throw new Error(`SANDBOX_DASHBOARD must be on or off, not "${env.SANDBOX_DASHBOARD}"`);
  }
  const noDashboard = values['no-dashboard'] === true || dashboardSetting === 'off' || dashboardSetting === 'false' || dashboardSetting === '0';

  const merchantName = pick('merchant-name', 'SANDBOX_MERCHANT_NAME')?.trim();
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (merchantName !== undefined && (merchantName === '' || merchantName.length > MAX_MERCHANT_NAME_CHARS || /[\u0000-\u001f\u007f-\u009f]/.test(merchantName))) {
    throw new Error(`--merchant-name must be 1 to ${MAX_MERCHANT_NAME_CHARS} characters without control characters`);
  }

  const defaults = defaultSandboxMerchant();
  const partnerId = pick('partner-id', 'SANDBOX_PARTNER_ID') ?? SANDBOX_DEFAULTS.partnerId;
  const merchant = {
    ...defaults,
    merchantId: pick('merchant-id', 'SANDBOX_MERCHANT_ID') ?? defaults.merchantId,
    ...(merchantName === undefined ? {} : { name: merchantName }),
    apiKey: pick('api-key', 'SANDBOX_API_KEY') ?? defaults.apiKey,
    publishableKey: pick('publishable-key', 'SANDBOX_PUBLISHABLE_KEY') ?? defaults.publishableKey,
    partnerId,
  };
  if (merchant.apiKey === merchant.publishableKey) throw new Error('--api-key and --publishable-key must differ');
  return {
    help: values.help === true,
    quiet: values.quiet === true,
    port: Number(portText),
    host: pick('host', 'SANDBOX_HOST') ?? SANDBOX_DEFAULTS.host,
    merchants: [merchant] as [SandboxMerchant],
    partners: [{ partnerId, apiKey: pick('partner-key', 'SANDBOX_PARTNER_KEY') ?? SANDBOX_DEFAULTS.partnerApiKey }] as [SandboxPartner],
    webhook: { url: webhookUrl, webhookKeyBase64 },
    headerPrefix,
    ...(maxChargesText === undefined ? {} : { maxCharges: Number(maxChargesText) }),
    ...(publicUrl ? { publicUrl: publicUrl.replace(/\/$/, '') } : {}),
    ...(noDashboard ? { dashboard: false as const } : {}),
  };
}

/** Runs the CLI: starts the sandbox, prints what a developer needs, stops on SIGINT/SIGTERM. */
export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  let options: ReturnType<typeof parseCliOptions>;
  try {
    options = parseCliOptions(argv, env);
  } catch (error) {
    console.error(`satang-sandbox: ${(error as Error).message}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    console.log(HELP);
    return;
  }
  const { help: _help, quiet, ...sandboxOptions } = options;
  let running;
  try {
    running = await listenSandbox({ ...sandboxOptions, ...(quiet ? {} : { log: (line: string) => console.log(line) }) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE'
        ? `satang-sandbox: port ${options.port} is already in use; pick another with --port or SANDBOX_PORT`
        : `satang-sandbox: could not start: ${(error as Error).message}`,
    );
    process.exitCode = 1;
    return;
  }
  const [merchant] = options.merchants;
  const [partner] = options.partners;
  const base = options.publicUrl ?? running.url;
  console.log(`satang-sandbox listening on ${running.url}

  merchant id       ${merchant.merchantId}
  merchant name     ${merchant.name ?? SANDBOX_DEFAULTS.merchantName}   (shown to shoppers on the hosted pages)
  API key           ${merchant.apiKey}   (server only: /api/v1/*)
  publishable key   ${merchant.publishableKey}   (browser: /client/v1/*)
  partner           ${partner.partnerId} / ${partner.apiKey}
  webhooks          ${options.webhook.url ?? 'off (set --webhook-url)'}
  webhook key       ${options.webhook.webhookKeyBase64}
  header prefix     ${options.headerPrefix}   (${options.headerPrefix}Idempotency-Key, ${options.headerPrefix}Signature, …)
  dashboard         ${options.dashboard === false ? 'off (--no-dashboard)' : `${base}${SANDBOX_DASHBOARD_PATH}   (sign in with the merchant id and API key)`}
  PromptPay payer   ${base}${SANDBOX_PAGES_PATH}/promptpay   (one charge's link: GET /sandbox/v1/charges/{id}/payer-link)
  deliveries log    ${base}/sandbox/v1/webhook-deliveries

Test cards (any future expiry, CVC 123, Amex 1234):
${SANDBOX_TEST_CARDS.map((card) => `  ${card.number.padEnd(17)} ${card.description}`).join('\n')}
  any other valid   fails with CH_PROCESSING_FAILED
`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
