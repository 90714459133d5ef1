/**
 * The React SPA's entry. The shop's server renders the service settings into data attributes of
 * the root element; the elements themselves are defined by /src/elements/index.ts, loaded first.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import type { ServiceSettings } from './CheckoutView.js';
import { requiredElement } from '../required-element.js';

const root = requiredElement('#root');
const settings: ServiceSettings = {
  merchantId: root.dataset.merchantId ?? '',
  publishableKey: root.dataset.publishableKey ?? '',
  serviceUrl: root.dataset.serviceUrl ?? '',
  endpoint: root.dataset.endpoint ?? '/api/checkout',
};

createRoot(root).render(
  <StrictMode>
    <App settings={settings} />
  </StrictMode>,
);
