import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../../src/sandbox/cli.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/defaults.js';

const OTHER_KEY = Buffer.alloc(32, 7).toString('base64');

const FULL_ENV = {
  SANDBOX_PORT: '5001',
  SANDBOX_HOST: '0.0.0.0',
  SANDBOX_MERCHANT_ID: 'mch_env',
  SANDBOX_API_KEY: 'sk_env',
  SANDBOX_PUBLISHABLE_KEY: 'pk_env',
  SANDBOX_PARTNER_ID: 'ptn_env',
  SANDBOX_PARTNER_KEY: 'sk_partner_env',
  SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9000/env-hooks',
  SANDBOX_WEBHOOK_KEY: OTHER_KEY,
  SANDBOX_PUBLIC_URL: 'http://env.localhost:5001',
};

const FULL_FLAGS = [
  '--port', '6002',
  '--host', '::1',
  '--merchant-id', 'mch_flag',
  '--api-key', 'sk_flag',
  '--publishable-key', 'pk_flag',
  '--partner-id', 'ptn_flag',
  '--partner-key', 'sk_partner_flag',
  '--webhook-url', 'https://hooks.example/flag',
  '--webhook-key', SANDBOX_DEFAULTS.webhookKeyBase64,
  '--public-url', 'https://flag.example/',
];

const parseError = (argv: string[], env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseCliOptions(argv, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`parseCliOptions accepted ${JSON.stringify(argv)} ${JSON.stringify(env)}`);
};

describe('parseCliOptions', () => {
  describe('without flags or environment', () => {
    it('uses the documented defaults, no webhook URL and no public URL', () => {
      const options = parseCliOptions([], {});
      expect(options).toEqual({
        help: false,
        quiet: false,
        port: SANDBOX_DEFAULTS.port,
        host: SANDBOX_DEFAULTS.host,
        merchants: [
          {
            merchantId: SANDBOX_DEFAULTS.merchantId,
            apiKey: SANDBOX_DEFAULTS.apiKey,
            publishableKey: SANDBOX_DEFAULTS.publishableKey,
            partnerId: SANDBOX_DEFAULTS.partnerId,
            name: SANDBOX_DEFAULTS.merchantName,
          },
        ],
        partners: [{ partnerId: SANDBOX_DEFAULTS.partnerId, apiKey: SANDBOX_DEFAULTS.partnerApiKey }],
        webhook: { url: undefined, webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 },
        headerPrefix: 'X-Beam-',
      });
      expect(options).not.toHaveProperty('publicUrl');
    });

    it('ignores unrelated environment variables', () => {
      expect(parseCliOptions([], { PORT: '1', HOST: 'example.com', API_KEY: 'x' })).toEqual(parseCliOptions([], {}));
    });
  });

  describe('reading the environment', () => {
    it('takes every SANDBOX_* variable over the defaults', () => {
      const options = parseCliOptions([], FULL_ENV);
      expect(options.port).toBe(5001);
      expect(options.host).toBe('0.0.0.0');
      expect(options.merchants).toEqual([
        { merchantId: 'mch_env', apiKey: 'sk_env', publishableKey: 'pk_env', partnerId: 'ptn_env', name: SANDBOX_DEFAULTS.merchantName },
      ]);
      expect(options.partners).toEqual([{ partnerId: 'ptn_env', apiKey: 'sk_partner_env' }]);
      expect(options.webhook).toEqual({ url: 'http://127.0.0.1:9000/env-hooks', webhookKeyBase64: OTHER_KEY });
      expect(options.publicUrl).toBe('http://env.localhost:5001');
    });

    it('keeps the defaults for the variables that are not set', () => {
      const options = parseCliOptions([], { SANDBOX_MERCHANT_ID: 'mch_env', SANDBOX_API_KEY: 'sk_env' });
      expect(options.merchants[0]).toMatchObject({ merchantId: 'mch_env', apiKey: 'sk_env', publishableKey: SANDBOX_DEFAULTS.publishableKey });
      expect(options.port).toBe(SANDBOX_DEFAULTS.port);
      expect(options.webhook.webhookKeyBase64).toBe(SANDBOX_DEFAULTS.webhookKeyBase64);
    });

    it('treats an empty variable as unset', () => {
      const options = parseCliOptions([], { SANDBOX_PORT: '', SANDBOX_MERCHANT_ID: '', SANDBOX_WEBHOOK_URL: '', SANDBOX_WEBHOOK_KEY: '', SANDBOX_PUBLIC_URL: '' });
      expect(options).toEqual(parseCliOptions([], {}));
    });
  });

  describe('reading flags', () => {
    it('takes every flag over the environment', () => {
      const options = parseCliOptions(FULL_FLAGS, FULL_ENV);
      expect(options.port).toBe(6002);
      expect(options.host).toBe('::1');
      expect(options.merchants).toEqual([
        { merchantId: 'mch_flag', apiKey: 'sk_flag', publishableKey: 'pk_flag', partnerId: 'ptn_flag', name: SANDBOX_DEFAULTS.merchantName },
      ]);
      expect(options.partners).toEqual([{ partnerId: 'ptn_flag', apiKey: 'sk_partner_flag' }]);
      expect(options.webhook).toEqual({ url: 'https://hooks.example/flag', webhookKeyBase64: SANDBOX_DEFAULTS.webhookKeyBase64 });
      expect(options.publicUrl).toBe('https://flag.example');
    });

    it('takes a flag over the environment one setting at a time, leaving the others to the environment', () => {
      const options = parseCliOptions(['--api-key', 'sk_flag'], FULL_ENV);
      expect(options.merchants[0]).toMatchObject({ merchantId: 'mch_env', apiKey: 'sk_flag', publishableKey: 'pk_env' });
      expect(options.port).toBe(5001);
    });

    it('accepts --name=value as well as --name value', () => {
      expect(parseCliOptions(['--port=0', '--merchant-id=mch_eq'], {})).toMatchObject({ port: 0, merchants: [{ merchantId: 'mch_eq' }] });
    });

    it('reads the port as a number, 0 and 65535 included', () => {
      expect(parseCliOptions(['--port', '0'], {}).port).toBe(0);
      expect(parseCliOptions(['--port', '65535'], {}).port).toBe(65_535);
      expect(parseCliOptions([], { SANDBOX_PORT: '0' }).port).toBe(0);
    });

    it('turns on quiet with --quiet and help with --help or -h', () => {
      expect(parseCliOptions(['--quiet'], {})).toMatchObject({ quiet: true, help: false });
      expect(parseCliOptions(['--help'], {})).toMatchObject({ help: true, quiet: false });
      expect(parseCliOptions(['-h'], {}).help).toBe(true);
    });

    it('uses the partner id for both the merchant and the partner', () => {
      const options = parseCliOptions(['--partner-id', 'ptn_x'], {});
      expect(options.merchants[0].partnerId).toBe('ptn_x');
      expect(options.partners[0]).toEqual({ partnerId: 'ptn_x', apiKey: SANDBOX_DEFAULTS.partnerApiKey });
    });

    it('drops a trailing slash from the public URL', () => {
      expect(parseCliOptions(['--public-url', 'http://localhost:4010/'], {}).publicUrl).toBe('http://localhost:4010');
      expect(parseCliOptions(['--public-url', 'https://sandbox.example'], {}).publicUrl).toBe('https://sandbox.example');
    });
  });

  describe('refusing bad input', () => {
    it.each([
      [['--port', 'abc'], '--port must be a number from 0 to 65535, not "abc"'],
      [['--port', '65536'], '--port must be a number from 0 to 65535, not "65536"'],
      [['--port', '1.5'], '--port must be a number from 0 to 65535, not "1.5"'],
      [['--port=-1'], '--port must be a number from 0 to 65535, not "-1"'],
      [['--port', ' 80'], '--port must be a number from 0 to 65535, not " 80"'],
    ])('refuses the port in %j', (argv, message) => {
      expect(parseError(argv)).toBe(message);
    });

    it('refuses a bad SANDBOX_PORT with the same message', () => {
      expect(parseError([], { SANDBOX_PORT: '4o10' })).toBe('--port must be a number from 0 to 65535, not "4o10"');
    });

    it.each(['notaurl', 'ftp://files.example/hooks', 'http://', 'http://has space.example', '127.0.0.1:9000/hooks'])(
      'refuses the webhook URL %j',
      (url) => {
        expect(parseError(['--webhook-url', url])).toBe(`--webhook-url must be an http(s) URL, not "${url}"`);
        expect(parseError([], { SANDBOX_WEBHOOK_URL: url })).toBe(`--webhook-url must be an http(s) URL, not "${url}"`);
      },
    );

    it.each(['not base64!', 'abc', 'c2F0YW5n-', 'c2F0YW5nLXNhbmRib3g', 'QQ=A'])('refuses the webhook key %j', (key) => {
      expect(parseError(['--webhook-key', key])).toBe('--webhook-key must be a non-empty base64 string');
      expect(parseError([], { SANDBOX_WEBHOOK_KEY: key })).toBe('--webhook-key must be a non-empty base64 string');
    });

    it.each(['localhost:4010', 'http://localhost:4010/sandbox', 'ftp://localhost', 'http://'])('refuses the public URL %j', (url) => {
      expect(parseError(['--public-url', url])).toBe(`--public-url must be an origin such as http://localhost:4010, not "${url}"`);
    });

    it('refuses an API key equal to the publishable key, from flags or environment', () => {
      expect(parseError(['--api-key', 'same', '--publishable-key', 'same'])).toBe('--api-key and --publishable-key must differ');
      expect(parseError([], { SANDBOX_API_KEY: 'same', SANDBOX_PUBLISHABLE_KEY: 'same' })).toBe('--api-key and --publishable-key must differ');
      expect(parseError(['--api-key', SANDBOX_DEFAULTS.publishableKey])).toBe('--api-key and --publishable-key must differ');
    });

    it('refuses an unknown flag, naming it', () => {
      expect(parseError(['--bogus'])).toContain("'--bogus'");
      expect(parseError(['--port', '0', '-x'])).toContain("'-x'");
    });

    it('refuses a positional argument', () => {
      expect(parseError(['4010'])).toContain("'4010'");
    });

    it('refuses a flag that is missing its value', () => {
      expect(parseError(['--port'])).toContain('--port');
      expect(parseError(['--quiet=yes'])).toContain('--quiet');
    });
  });
});

describe('parseCliOptions with URLs that only look right', () => {
  it.each(['http://:::', 'http://exa%mple'])('refuses --webhook-url %s before starting', (url) => {
    expect(parseError(['--webhook-url', url])).toBe(`--webhook-url must be an http(s) URL, not "${url}"`);
  });

  it.each(['http://a:b:c', 'http://localhost:4010/path'])('refuses --public-url %s, which is not an origin', (url) => {
    expect(parseError(['--public-url', url])).toBe(`--public-url must be an origin such as http://localhost:4010, not "${url}"`);
  });

  it('lets an empty flag fall back to the environment', () => {
    expect(parseCliOptions(['--merchant-id='], { SANDBOX_MERCHANT_ID: 'from-env' }).merchants[0].merchantId).toBe('from-env');
  });

  describe('--header-prefix', () => {
    it('is the live service\'s X-Beam- unless set, from the flag over SANDBOX_HEADER_PREFIX', () => {
      expect(parseCliOptions([], {}).headerPrefix).toBe('X-Beam-');
      expect(parseCliOptions([], { SANDBOX_HEADER_PREFIX: 'X-Service-' }).headerPrefix).toBe('X-Service-');
      expect(parseCliOptions(['--header-prefix', 'x-acme-pay-'], { SANDBOX_HEADER_PREFIX: 'X-Service-' }).headerPrefix).toBe('x-acme-pay-');
    });

    it.each([['X-Beam'], ['X Beam-'], ['-'], ['X-Beam-\r\n'], ['Ⅹ-Beam-']])('refuses %j, saying what a prefix looks like', (prefix) => {
      expect(parseError(['--header-prefix', prefix])).toMatch(/--header-prefix must be .*"X-Beam-"/);
      expect(parseError([], { SANDBOX_HEADER_PREFIX: prefix })).toMatch(/--header-prefix must be/);
    });
  });

  describe('--max-charges', () => {
    it('is left to the sandbox unless set, from the flag over SANDBOX_MAX_CHARGES', () => {
      expect(parseCliOptions([], {})).not.toHaveProperty('maxCharges');
      expect(parseCliOptions([], { SANDBOX_MAX_CHARGES: '500' }).maxCharges).toBe(500);
      expect(parseCliOptions(['--max-charges', '7'], { SANDBOX_MAX_CHARGES: '500' }).maxCharges).toBe(7);
    });

    it.each([['0'], ['-1'], ['1.5'], ['many'], ['99999999999999999999']])('refuses %j', (value) => {
      expect(parseError([`--max-charges=${value}`])).toMatch(/--max-charges must be a whole number of at least 1/);
    });
  });
});

describe('--merchant-name', () => {
  it('names the default merchant to shoppers, from the flag over SANDBOX_MERCHANT_NAME, trimmed', () => {
    expect(parseCliOptions([], {}).merchants[0].name).toBe(SANDBOX_DEFAULTS.merchantName);
    expect(parseCliOptions([], { SANDBOX_MERCHANT_NAME: 'บ้านคราฟต์' }).merchants[0].name).toBe('บ้านคราฟต์');
    expect(parseCliOptions(['--merchant-name', ' Baan Craft '], { SANDBOX_MERCHANT_NAME: 'Other' }).merchants[0].name).toBe('Baan Craft');
  });

  it.each([['   '], ['Baan\nCraft'], ['Baan\u0000Craft'], ['x'.repeat(101)]])('refuses %j', (name) => {
    expect(parseError(['--merchant-name', name])).toMatch(/--merchant-name must be 1 to 100 characters without control characters/);
  });
});
