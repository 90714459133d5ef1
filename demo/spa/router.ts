import { useCallback, useEffect, useState } from 'react';

/**
 * The SPA's routes, on the history API under /demo/spa/ (the one URL the shop's server renders):
 *
 *   /demo/spa/?order=REF                  the cart
 *   /demo/spa/?order=REF&step=checkout    payment (also where bank and 3-D Secure pages return)
 *   /demo/spa/?order=REF&step=confirmed   the confirmation
 */
export type Step = 'cart' | 'checkout' | 'confirmed';

export interface Route {
  step: Step;
  order: string | undefined;
}

export const BASE_PATH = '/demo/spa/';

export function readRoute(): Route {
  const params = new URLSearchParams(location.search);
  const step = params.get('step');
  return { step: step === 'checkout' || step === 'confirmed' ? step : 'cart', order: params.get('order') ?? undefined };
}

export function routeHref(route: Route): string {
  const params = new URLSearchParams();
  if (route.order) params.set('order', route.order);
  if (route.step !== 'cart') params.set('step', route.step);
  const query = params.toString();
  return query ? `${BASE_PATH}?${query}` : BASE_PATH;
}

export type Navigate = (next: Route, options?: { replace?: boolean }) => void;

/** The current route and a way to change it; back and forward work as in any site. */
export function useRoute(): [Route, Navigate] {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const onPopState = () => setRoute(readRoute());
    addEventListener('popstate', onPopState);
    return () => removeEventListener('popstate', onPopState);
  }, []);
  const navigate = useCallback<Navigate>((next, options) => {
    const href = routeHref(next);
    if (options?.replace) history.replaceState(null, '', href);
    else history.pushState(null, '', href);
    setRoute(next);
    if (!options?.replace) scrollTo({ top: 0 });
  }, []);
  return [route, navigate];
}
