import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { i18n as I18n } from "i18next";
import { type ComponentType, lazy, Suspense, useEffect, useMemo } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { Route, Routes, useLocation } from "react-router";
import { Toaster } from "../components/ui/toast";
import { PublicLayout } from "../features/public-site/layout/PublicLayout";
import NotFoundPage from "../features/public-site/pages/NotFoundPage";
import { ReferralTracker } from "../features/referral/ReferralTracker";
import { type SiteConfig, SiteContext } from "../lib/site";
import { matchRoute, metaKeys, ROUTES, type RouteDef } from "./routes";

const lazyPages = new Map(ROUTES.map((route) => [route, lazy(route.load)]));

/** Keeps the document title in step with the route, and scrolls to the top on navigation (spec §2). */
function RouteEffects() {
  const location = useLocation();
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll on every route change, not only hash changes
  useEffect(() => {
    if (!location.hash) window.scrollTo(0, 0);
  }, [location.pathname, location.hash]);
  useEffect(() => {
    const route = matchRoute(location.pathname);
    const title = route ? t(metaKeys(route).title) : t("notFound.title");
    document.title = `${title} | ${t("brand.name")}`;
    document.documentElement.lang = i18n.language;
  }, [location.pathname, t, i18n.language]);
  return null;
}

/** Modules already loaded before the first render (the current route), rendered without suspending. */
export type PreloadedPages = Map<RouteDef, ComponentType>;

function Page({ route, preloaded }: { route: RouteDef; preloaded?: PreloadedPages }) {
  const Component = preloaded?.get(route) ?? lazyPages.get(route)!;
  return <Component />;
}

/**
 * Loads the module of the route at `pathname` so the first render (prerender on the server,
 * hydration in the browser) does not suspend: React would otherwise emit the page as a pending
 * boundary completed by an inline script, which the CSP forbids.
 */
export async function preloadRoute(pathname: string): Promise<PreloadedPages> {
  const route = matchRoute(pathname);
  const map: PreloadedPages = new Map();
  if (route) map.set(route, (await route.load()).default);
  return map;
}

/**
 * The whole application: providers, then routes. Used by the browser (entry-client) and by the
 * server's prerenderer (entry-server), each supplying its own router around it.
 */
export function App({
  i18n,
  queryClient,
  site,
  preloaded,
}: {
  i18n: I18n;
  queryClient: QueryClient;
  site: SiteConfig;
  preloaded?: PreloadedPages;
}) {
  const routes = useMemo(() => ROUTES.filter((r) => r.layout === "public"), []);
  return (
    <SiteContext.Provider value={site}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <RouteEffects />
          <ReferralTracker />
          <Routes>
            <Route element={<PublicLayout />}>
              {routes.map((route) => (
                <Route
                  key={route.path}
                  path={route.path}
                  element={<Page route={route} preloaded={preloaded} />}
                />
              ))}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        </QueryClientProvider>
      </I18nextProvider>
    </SiteContext.Provider>
  );
}
