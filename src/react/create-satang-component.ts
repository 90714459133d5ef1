import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { EventPropName } from './satang-elements.js';
import type { SatangStyle } from './jsx.js';

/** The wrapper's prop of each event: `{ 'satang-success': SatangSuccessEvent }` → `{ onSatangSuccess?: (event) => void }`. */
export type SatangEventProps<Events> = { [Type in keyof Events & string as EventPropName<Type>]?: (event: Events[Type]) => void };

/**
 * The props of a wrapper: the element's properties in camelCase (set as properties, so a
 * `statusToken` never becomes an attribute), its events as `onSatang…` props, and React's own
 * (`ref` to the element, `className`, `class`, `style` with the design tokens, `children`, `id`…).
 */
export type SatangComponentProps<Element extends HTMLElement, Properties, Events> = Omit<React.HTMLAttributes<Element>, 'style' | keyof Properties | keyof SatangEventProps<Events>> & {
  class?: string;
  style?: SatangStyle;
} & Partial<Properties> &
  SatangEventProps<Events>;

/** A wrapper: a React component rendering the element, its `ref` the element itself. */
export type SatangComponent<Element extends HTMLElement, Properties, Events> = React.ForwardRefExoticComponent<
  SatangComponentProps<Element, Properties, Events> & React.RefAttributes<Element>
>;

export interface SatangComponentSpec {
  tagName: string;
  displayName: string;
  /** The element's properties and their attributes (the keys are what is set as properties). */
  properties: Readonly<Record<string, string | null>>;
  /** Each event type with its `on…` prop. */
  events: Readonly<Record<string, string>>;
  /** Defines the element: a dynamic import of its module, run in the browser only. */
  define: () => Promise<unknown>;
}

/**
 * A React component for a Satang element, made with @lit/react's `createComponent`: the
 * properties are set on the element and the events listened to in a layout effect, after the
 * element is in the document, so they work the same after a client render and after hydrating
 * server-rendered HTML (React 19 attaches no custom-element listener while hydrating).
 *
 * Safe to import and render on a server: no element class is loaded here. `createComponent` only
 * asks whether a prop name is on the class's prototype, and a stand-in with the property names
 * answers that. The element is defined by `define()`, from an effect, so only in a browser and
 * after hydration; the properties set before it is defined are kept by Lit and applied when it
 * upgrades, and its first events (`satang-ready`) come after the listeners are attached.
 */
export function createSatangComponent<Element extends HTMLElement, Properties, Events>(spec: SatangComponentSpec): SatangComponent<Element, Properties, Events> {
  const events = Object.fromEntries(Object.entries(spec.events).map(([type, prop]) => [prop, type as EventName]));
  // Typed by the wrapper below; @lit/react's own prop types would take every member of the class.
  const Rendered = createComponent({ react: React, tagName: spec.tagName, elementClass: propertyShape(Object.keys(spec.properties)), events, displayName: spec.tagName }) as React.ComponentType<
    Record<string, unknown> & React.RefAttributes<Element>
  >;
  const Component = React.forwardRef<Element, Record<string, unknown>>(function SatangElement(props, ref) {
    React.useEffect(() => {
      spec.define().catch((error: unknown) => {
        console.error(`satang: <${spec.tagName}> could not be loaded`, error);
      });
    }, []);
    return React.createElement(Rendered, { ...props, ref });
  });
  Component.displayName = spec.displayName;
  return Component as SatangComponent<Element, Properties, Events>;
}

/**
 * What `createComponent` reads of an element class, and all it reads: a prototype, asked whether
 * a prop's name is on it (`name in elementClass.prototype`) to tell properties from attributes.
 * Here one with the element's property names. Never constructed, and no HTMLElement, so nothing
 * of the DOM is touched to make it.
 */
function propertyShape(names: readonly string[]): new () => HTMLElement {
  const prototype: object = Object.fromEntries(names.map((name) => [name, undefined]));
  return { prototype } as unknown as new () => HTMLElement;
}
