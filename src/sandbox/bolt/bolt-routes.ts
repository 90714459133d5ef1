import { CHARGE_FAILURE_CODES } from '../../core/schemas/charge.js';
import { SANDBOX_DEFAULTS } from '../defaults.js';
import type { Html } from '../http/html.js';
import { readFormPost } from '../http/read-body.js';
import { pageResponse, renderErrorPage, seeOther, STYLESHEET_HREF } from '../http/page-layout.js';
import { pageParams } from '../http/list-params.js';
import { apiRoute, pageRoute, type PageArea, type RouteContext, type SandboxRoute } from '../http/route.js';
import { jsonResponse } from '../http/sandbox-error.js';
import { isChargeFailureCode, type BoltIntentRecord } from './bolt-intents.js';
import type { BoltDeviceRecord } from './bolt-devices.js';
import { renderBoltDevicePage, renderBoltIntentPage, renderOpenBoltIntentsPage, type BoltDeviceScreenView, type OpenBoltIntentView } from './bolt-pages.js';
import { SANDBOX_BOLT_DEVICE_PAGE_PATH, SANDBOX_BOLT_PAGE_PATH, type SandboxBolt } from './bolt.js';

/** Most open intents the terminal's home screen lists. */
const OPEN_INTENTS_SHOWN = 20;

/** The bolt pages: an address that names no intent is its 404 page; each takes GET and POST only. */
const BOLT_PAGES: PageArea = {
  prefix: SANDBOX_BOLT_PAGE_PATH,
  notFound: () => intentNotFound(),
  methods: ['GET', 'POST'],
};

interface Message { kind: 'error' | 'success'; text: string }

/**
 * The routes of bolt: intents, connections and devices of the API, and the bolt pages (the
 * terminal's list of open intents and devices, each device's screen with its pairing code, and
 * each intent's page, where the shopper pays, is declined or cancels).
 */
export function boltRoutes({ bolt, maxBodyBytes }: { bolt: SandboxBolt; maxBodyBytes: number }): SandboxRoute[] {
  const { intents, devices, connections } = bolt;
  const deviceOf = (record: BoltIntentRecord) => (record.deviceId === undefined ? undefined : devices.find(record.deviceId));

  /** The intent's page; a POST acts on it as the terminal or the shopper's app would. */
  const intentPage = async ({ request, url, params }: RouteContext<{ readonly id: string }>): Promise<Response> => {
    const record = intents.find(params.id);
    if (!record) return intentNotFound();
    const show = (status: number, message?: Message) => pageResponse(status, renderIntent(record, url.pathname, deviceOf(record), message));
    if (request.method === 'GET') return show(200);

    const form = await readFormPost(request, maxBodyBytes);
    const action = form.get('action');
    if (action !== 'pay' && action !== 'decline' && action !== 'cancel') return show(400, { kind: 'error', text: 'Choose pay, decline or cancel.' });
    if (record.intent.status !== 'ACTIVE') return show(409, { kind: 'error', text: `This payment request is already ${record.intent.status}.` });
    if (action === 'decline') {
      const chosen = form.get('failureCode') ?? '';
      const failureCode = chosen === '' ? 'CH_PROCESSING_FAILED' : chosen;
      if (!isChargeFailureCode(failureCode)) return show(400, { kind: 'error', text: `Choose a failure code: ${CHARGE_FAILURE_CODES.join(', ')}.` });
      intents.complete(record, action, failureCode);
      return show(200, { kind: 'error', text: `The payment was declined (${failureCode}). The request stays open: the shopper can try again.` });
    }
    intents.complete(record, action);
    if (record.returnUrl) return seeOther(record.returnUrl);
    return show(200, action === 'pay' ? { kind: 'success', text: 'Payment approved.' } : { kind: 'error', text: 'The payment request was canceled.' });
  };

  const openIntents = (): Response => {
    const open = intents.open(OPEN_INTENTS_SHOWN).map(openIntentView);
    return pageResponse(200, renderOpenBoltIntentsPage({ stylesheetHref: STYLESHEET_HREF, intents: open, devices: devices.all().map(deviceScreenView) }));
  };

  /** A device's screen: its pairing code and the open intents sent to it. */
  const deviceScreen = ({ params }: RouteContext<{ readonly id: string }>): Response => {
    const record = devices.find(params.id);
    if (!record) return deviceNotFound();
    const device = { ...deviceScreenView(record), connections: connections.ofDevice(record.device.boltDeviceId).length };
    const open = intents.open(OPEN_INTENTS_SHOWN, record.device.boltDeviceId).map(openIntentView);
    return pageResponse(200, renderBoltDevicePage({ stylesheetHref: STYLESHEET_HREF, device, intents: open }));
  };

  return [
    apiRoute('POST', '/api/v1/bolt-intents', ({ merchant, body, origin }) => jsonResponse(201, bolt.createIntent(merchant, body, origin))),
    apiRoute('GET', '/api/v1/bolt-intents/:id', ({ merchant, params }) => jsonResponse(200, bolt.getIntent(merchant, params.id))),
    // PATCH only: the route table answers POST, PUT and DELETE here 405 with `Allow: PATCH`.
    apiRoute(
      'PATCH',
      '/api/v1/bolt-intents/:id/cancel',
      ({ merchant, params }) => {
        bolt.cancelIntent(merchant, params.id);
        return jsonResponse(202, { message: 'canceled' });
      },
      { bodyless: true },
    ),
    apiRoute('POST', '/api/v1/bolt-connections', ({ merchant, body }) => jsonResponse(201, bolt.createConnection(merchant, body))),
    apiRoute('GET', '/api/v1/bolt-connections/:id', ({ merchant, params }) => jsonResponse(200, bolt.getConnection(merchant, params.id))),
    apiRoute('DELETE', '/api/v1/bolt-connections/:id', ({ merchant, params }) => jsonResponse(200, bolt.deleteConnection(merchant, params.id)), { bodyless: true }),
    apiRoute('GET', '/api/v1/bolt-devices', ({ merchant, url }) => jsonResponse(200, bolt.listDevices(merchant, pageParams(url.searchParams)))),
    apiRoute('GET', '/api/v1/bolt-devices/:id', ({ merchant, params }) => jsonResponse(200, bolt.getDevice(merchant, params.id))),
    apiRoute('PATCH', '/api/v1/bolt-devices/:id/name', ({ merchant, params, body }) => jsonResponse(200, bolt.renameDevice(merchant, params.id, body))),
    apiRoute(
      'POST',
      '/api/v1/bolt-devices/:id/health-check',
      ({ merchant, params }) => {
        bolt.requestHealthCheck(merchant, params.id);
        return new Response(null, { status: 202, headers: { 'cache-control': 'no-store' } });
      },
      { bodyless: true },
    ),

    pageRoute(BOLT_PAGES, 'GET', SANDBOX_BOLT_PAGE_PATH, openIntents),
    pageRoute(BOLT_PAGES, 'GET', `${SANDBOX_BOLT_DEVICE_PAGE_PATH}/:id`, deviceScreen),
    pageRoute(BOLT_PAGES, 'GET', `${SANDBOX_BOLT_PAGE_PATH}/:id`, intentPage),
    pageRoute(BOLT_PAGES, 'POST', `${SANDBOX_BOLT_PAGE_PATH}/:id`, intentPage),
  ];
}

function openIntentView({ intent }: BoltIntentRecord): OpenBoltIntentView {
  return {
    id: intent.id,
    mode: intent.mode.type,
    amountSatang: intent.amount,
    currency: intent.currency,
    referenceId: intent.referenceId ?? '',
    href: `${SANDBOX_BOLT_PAGE_PATH}/${encodeURIComponent(intent.id)}`,
  };
}

function deviceScreenView({ device, pairingCode }: BoltDeviceRecord): BoltDeviceScreenView {
  return { id: device.boltDeviceId, name: device.name, pairingCode, href: `${SANDBOX_BOLT_DEVICE_PAGE_PATH}/${encodeURIComponent(device.boltDeviceId)}` };
}

function deviceNotFound(): Response {
  const message = 'No bolt device has this address. Open the bolt terminal page to see every device.';
  return pageResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Device not found', message }));
}

function intentNotFound(): Response {
  const message = 'No bolt intent has this address. Check the link, or ask the merchant for a new one.';
  return pageResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Payment request not found', message }));
}

function renderIntent(record: BoltIntentRecord, action: string, device: BoltDeviceRecord | undefined, message?: Message): Html {
  const { intent } = record;
  return renderBoltIntentPage({
    stylesheetHref: STYLESHEET_HREF,
    action,
    failureCodes: CHARGE_FAILURE_CODES,
    intent: {
      id: intent.id,
      mode: intent.mode.type,
      amountSatang: intent.amount,
      currency: intent.currency,
      referenceId: intent.referenceId ?? '',
      merchantName: intent.merchant?.name ?? SANDBOX_DEFAULTS.merchantName,
      paymentMethodType: intent.paymentMethod?.paymentMethodType ?? '',
      status: intent.status,
      result: intent.result ?? '',
      expiresAt: intent.expiresAt ?? '',
      latestChargeId: intent.latestChargeId ?? '',
      latestChargeFailureCode: intent.latestChargeFailureCode ?? '',
      ...(record.returnUrl ? { returnUrl: record.returnUrl } : {}),
      ...(device ? { device: { name: device.device.name, href: deviceScreenView(device).href } } : {}),
    },
    ...(message ? { message } : {}),
  });
}
