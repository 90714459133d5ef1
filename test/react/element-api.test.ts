import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JSX } from 'react';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DEFAULT_METHODS, parseMethods } from '../../src/elements/satang-checkout/payment-methods.js';
import {
  CARD_FORM_ATTRIBUTES,
  CARD_FORM_EVENT_PROPS,
  CHECKOUT_ATTRIBUTES,
  CHECKOUT_EVENT_PROPS,
  METHOD_NAMES,
  QR_PAYMENT_ATTRIBUTES,
  QR_PAYMENT_EVENT_PROPS,
} from '../../src/react/satang-elements.js';
import { SATANG_TAGS } from '../../src/react/jsx.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const source = (path: string) => readFileSync(`${root}/${path}`, 'utf8');

/** What an element's source declares: its public properties with their attributes (null: none), and its events with their classes. */
function declared(path: string): { properties: Record<string, string | null>; events: Record<string, string> } {
  const code = source(path);
  const block = /static override properties = \{([\s\S]*?)\n {2}\};/.exec(code)?.[1];
  if (block === undefined) throw new Error(`${path}: no static properties`);
  const properties: Record<string, string | null> = {};
  for (const [, name = '', options = ''] of block.matchAll(/^\s+(\w+): \{([^}]*)\}/gm)) {
    if (options.includes('state: true')) continue;
    const attribute = /attribute: (?:'([^']+)'|(false))/.exec(options);
    properties[name] = attribute?.[2] ? null : (attribute?.[1] ?? name.toLowerCase());
  }
  const events = Object.fromEntries([...code.matchAll(/@event \{(\w+)\} ([\w-]+)/g)].map(([, type = '', name = '']) => [name, type]));
  return { properties, events };
}

/** The event classes the React types give each event, read from src/react/satang-elements.ts. */
function typedEvents(interfaceName: string): Record<string, string> {
  const block = new RegExp(`export interface ${interfaceName} \\{([\\s\\S]*?)\\n\\}`).exec(source('src/react/satang-elements.ts'))?.[1];
  if (block === undefined) throw new Error(`no interface ${interfaceName}`);
  return Object.fromEntries([...block.matchAll(/'([\w-]+)': (\w+);/g)].map(([, name = '', type = '']) => [name, type]));
}

const ELEMENTS = [
  { tag: 'satang-checkout', path: 'src/elements/satang-checkout/satang-checkout.ts', attributes: CHECKOUT_ATTRIBUTES, eventProps: CHECKOUT_EVENT_PROPS, events: 'SatangCheckoutEvents' },
  { tag: 'satang-card-form', path: 'src/elements/satang-card-form/satang-card-form.ts', attributes: CARD_FORM_ATTRIBUTES, eventProps: CARD_FORM_EVENT_PROPS, events: 'SatangCardFormEvents' },
  { tag: 'satang-qr-payment', path: 'src/elements/satang-qr-payment/satang-qr-payment.ts', attributes: QR_PAYMENT_ATTRIBUTES, eventProps: QR_PAYMENT_EVENT_PROPS, events: 'SatangQrPaymentEvents' },
];

describe('what satang/react knows of each element', () => {
  describe.each(ELEMENTS)('<$tag>', ({ path, attributes, eventProps, events }) => {
    it('has every public property of the element, each with the attribute the element reads', () => {
      expect(attributes).toEqual(declared(path).properties);
    });

    it('types every event the element documents as dispatched, with the class it dispatches', () => {
      expect(typedEvents(events)).toEqual(declared(path).events);
    });

    it('gives each event its wrapper prop: satang-amount-changed is onSatangAmountChanged', () => {
      const pascal = (type: string) => type.replace(/(^|-)(\w)/g, (_whole, _dash, letter: string) => letter.toUpperCase());
      expect(Object.keys(eventProps).sort()).toEqual(Object.keys(declared(path).events).sort());
      for (const [type, prop] of Object.entries(eventProps)) expect(prop).toBe(`on${pascal(type)}`);
    });
  });

  it('types in JSX the three tags satang/jsx names, and no other', () => {
    expectTypeOf<(typeof SATANG_TAGS)[number]>().toEqualTypeOf<Extract<keyof JSX.IntrinsicElements, `satang-${string}`>>();
    expect([...SATANG_TAGS].sort()).toEqual(ELEMENTS.map(({ tag }) => tag).sort());
  });

  it('types methods with the names <satang-checkout> takes, its default among them', () => {
    for (const name of METHOD_NAMES) expect(parseMethods(name), name).toHaveProperty('types');
    expect(DEFAULT_METHODS.split(',').filter((name) => !(METHOD_NAMES as readonly string[]).includes(name))).toEqual([]);
  });
});
