import { useSyncExternalStore } from "react";

const subscribeNothing = () => () => {};

/**
 * False during the server's prerender and the hydration of its HTML, true afterwards (and at once
 * in a page rendered in the browser, e.g. after a client-side navigation). For what the
 * prerendered HTML must not show or allow before React has taken over: values from the query
 * string (one cached page per path), controls whose clicks hydration would undo, the cookie notice.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
