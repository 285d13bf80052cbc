import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { i18n as I18n } from "i18next";
import { type ComponentType, lazy, Suspense, useEffect, useState } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { Outlet, Route, Routes, useLocation } from "react-router";
import { LoadBoundary, PlainToasts, retryableLazy } from "../components/ui/LoadBoundary";
import { Spinner } from "../components/ui/Spinner";
import { useToasts } from "../components/ui/toast-store";
import { PublicLayout } from "../features/public-site/layout/PublicLayout";
import NotFoundPage from "../features/public-site/pages/NotFoundPage";
import { type SiteConfig, SiteContext } from "../lib/site";
import { matchRoute, metaKeys, ROUTES, type RouteDef } from "./routes";

/** The referral tracker, loaded only on a visit that brings a code (most pages never load it). */
const ReferralTracker = lazy(() =>
  import("../features/referral/ReferralTracker").then((m) => ({ default: m.ReferralTracker })),
);

/**
 * Mounts the referral tracker when the address carries a code (`?ref=CODE` on any page, or
 * `/partner/CODE`, docs/product/codes-and-partners.md#referral-link); other visits load none of it.
 */
function ReferralGate() {
  const { search, pathname } = useLocation();
  if (!/[?&]ref=/.test(search) && !pathname.startsWith("/partner/")) return null;
  return (
    <Suspense fallback={null}>
      <ReferralTracker />
    </Suspense>
  );
}

const lazyPages = new Map(ROUTES.map((route) => [route, retryableLazy(route.load)]));

/** Keeps the document title in step with the route, and scrolls to the top on navigation (docs/product/portals.md#navigation). */
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
    // Setting it, even to the same value, restyles the whole page: only when it changes.
    if (document.documentElement.lang !== i18n.language) document.documentElement.lang = i18n.language;
  }, [location.pathname, t, i18n.language]);
  return null;
}

const Toaster = retryableLazy(() => import("../components/ui/toast"));

/**
 * Loads the toast area (Radix Toast) with the first toast, keeping it out of the first page load.
 * When its module cannot be loaded (the connection or the server is down: often the failure the
 * toast reports), the toasts show without Radix, from code already loaded (docs/product/portals.md#failure-states).
 */
function LazyToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (toasts.length > 0) setNeeded(true);
  }, [toasts.length]);
  if (!needed) return null;
  return (
    <LoadBoundary fallback={() => <PlainToasts />}>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </LoadBoundary>
  );
}

/** The protected areas' layouts (session check, redirect to the role's login, navigation). */
const AdminLayout = retryableLazy(() => import("../features/admin/AdminLayout"));
const StudentLayout = retryableLazy(() => import("../features/student-portal/StudentLayout"));
const AffiliateLayout = retryableLazy(() => import("../features/affiliate-portal/AffiliateLayout"));

/** A page without the public header and footer (admin login). */
function BareLayout() {
  const { pathname } = useLocation();
  return (
    <main id="main" className="min-h-dvh bg-slate-50">
      <LoadBoundary resetKey={pathname}>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </LoadBoundary>
    </main>
  );
}

/**
 * Loads an area's layout lazily, with a spinner meanwhile (docs/product/portals.md#route-guards), and a message with
 * "Try again" when it cannot be loaded.
 */
function AreaFrame({ layout: Layout }: { layout: ComponentType }) {
  const { pathname } = useLocation();
  return (
    <LoadBoundary resetKey={pathname}>
      <Suspense fallback={<Spinner />}>
        <Layout />
      </Suspense>
    </LoadBoundary>
  );
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
  const routesOf = (layout: RouteDef["layout"]) =>
    ROUTES.filter((r) => r.layout === layout).map((route) => (
      <Route key={route.path} path={route.path} element={<Page route={route} preloaded={preloaded} />} />
    ));
  return (
    <SiteContext.Provider value={site}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <RouteEffects />
          <ReferralGate />
          <Routes>
            <Route element={<PublicLayout />}>
              {routesOf("public")}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
            <Route element={<BareLayout />}>{routesOf("bare")}</Route>
            <Route element={<AreaFrame layout={AdminLayout} />}>{routesOf("admin")}</Route>
            <Route element={<AreaFrame layout={StudentLayout} />}>{routesOf("student")}</Route>
            <Route element={<AreaFrame layout={AffiliateLayout} />}>{routesOf("affiliate")}</Route>
          </Routes>
          <LazyToaster />
        </QueryClientProvider>
      </I18nextProvider>
    </SiteContext.Provider>
  );
}
