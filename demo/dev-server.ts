import { SANDBOX_DEFAULTS, SANDBOX_OTP_CODE, SANDBOX_TEST_CARDS } from '../src/sandbox/index.js';
import { startDemoStack } from './stack.js';

/**
 * `npm start`: the demo shop on PORT (5173) and the sandbox on SANDBOX_PORT (4010), in one
 * process. `--quiet` prints only the first lines. Ctrl-C stops both.
 */

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    console.error(`${name} must be a port number (0-65535), got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const quiet = process.argv.includes('--quiet');
// The end-to-end tests pay from one address dozens of times a minute.
const rateLimit = process.env.DEMO_RATE_LIMIT === 'off' ? false : undefined;
const shopPort = port('PORT', 5173);
const sandboxPort = port('SANDBOX_PORT', SANDBOX_DEFAULTS.port);

let stack;
try {
  stack = await startDemoStack({ port: shopPort, sandboxPort, ...(rateLimit === false ? { rateLimit } : {}), ...(quiet ? {} : { log: (line: string) => console.log(line) }) });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message;
  console.error(code === 'EADDRINUSE' || /already in use/i.test(message) ? `Could not start: a port is in use (${message}). Set PORT or SANDBOX_PORT to free ones.` : `Could not start: ${message}`);
  process.exit(1);
}

const { url, sandboxUrl } = stack;
console.log(`
Satang demo shop     ${url}/
  React SPA          ${url}/demo/spa/
  theming            ${url}/demo/theming/
  strict CSP         ${url}/demo/csp/
  checkout handler   ${url}/api/checkout
Sandbox service      ${sandboxUrl}
  PromptPay payer    ${sandboxUrl}/sandbox/pages/promptpay   (pay a QR without a phone)
  dashboard          ${sandboxUrl}/sandbox/dashboard   (sign in with the merchant id and API key)
  merchant id        ${SANDBOX_DEFAULTS.merchantId}
  publishable key    ${SANDBOX_DEFAULTS.publishableKey}
  API key            ${SANDBOX_DEFAULTS.apiKey}   (server only)

Test cards (any future expiry, CVC 123, Amex 1234; OTP ${SANDBOX_OTP_CODE}):
${SANDBOX_TEST_CARDS.map((card) => `  ${card.number.padEnd(17)} ${card.description}`).join('\n')}

Ctrl-C stops everything.
`);

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  void stack.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
