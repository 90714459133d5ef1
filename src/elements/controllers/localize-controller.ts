import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Catalog } from '../i18n/catalog.js';
import { msg, resolveLocale, useMessages, type Locale, type MessageKey } from '../i18n/localize.js';

/** An element that speaks th or en: its `locale` when set to one of them, else the language around it. */
export type LocalizedHost = ReactiveControllerHost & HTMLElement & { locale: string | undefined };

/** The controllers of the connected elements, told by one observer whenever a `lang` changes. */
const connected = new Set<LocalizeController>();
let langObserver: MutationObserver | undefined;
const LANG_CHANGES: MutationObserverInit = { subtree: true, attributeFilter: ['lang'] };

/**
 * Gives an element its strings in Thai or English and re-renders it when its language changes:
 * its `locale` property (a reactive property of the element) or, without one, a `lang` attribute
 * around it (the closest `[lang]`, or the page's). One observer, shared by every element on the
 * page, watches the `lang` attributes of the document and of the shadow roots the elements sit in.
 */
export class LocalizeController implements ReactiveController {
  /** The language of the last render, to tell a `lang` change that matters from one that does not. */
  #shown: Locale | undefined;
  /** Set while the host renders: every string of one render reads the language looked up once. */
  #rendering = false;

  /** Registers the catalogs the element shows, so that {@link msg} finds their strings. */
  constructor(
    /** The element whose words these are (the panels read the checkout's own attributes through it). */
    readonly host: LocalizedHost,
    ...catalogs: Catalog[]
  ) {
    useMessages(...catalogs);
    host.addController(this);
  }

  /** The language the element speaks now: `th` or `en`. */
  get locale(): Locale {
    if (this.#rendering && this.#shown) return this.#shown;
    return resolveLocale(this.host.locale, this.host);
  }

  /** The string for `key` in the element's language, with `{name}` placeholders filled from `params`. */
  msg(key: MessageKey, params?: Record<string, string | number>): string {
    return msg(this.locale, key, params);
  }

  hostConnected(): void {
    langObserver ??= new MutationObserver(() => connected.forEach((controller) => controller.#renderIfChanged()));
    langObserver.observe(this.host.ownerDocument, LANG_CHANGES);
    // A `lang` inside a shadow root the element sits in (a framework's component, say) counts too.
    langObserver.observe(this.host.getRootNode(), LANG_CHANGES);
    connected.add(this);
    // Moved while away, into a part of the page that speaks another language.
    this.#renderIfChanged();
  }

  hostDisconnected(): void {
    connected.delete(this);
    // Observing again on the next connection re-arms it.
    if (connected.size === 0) langObserver?.disconnect();
  }

  hostUpdate(): void {
    this.#shown = resolveLocale(this.host.locale, this.host);
    this.#rendering = true;
  }

  hostUpdated(): void {
    this.#rendering = false;
  }

  #renderIfChanged(): void {
    if (resolveLocale(this.host.locale, this.host) !== this.#shown) this.host.requestUpdate();
  }
}
