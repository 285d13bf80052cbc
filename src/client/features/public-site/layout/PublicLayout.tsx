import { Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { LoadBoundary } from "../../../components/ui/LoadBoundary";
import { Spinner } from "../../../components/ui/Spinner";
import { CookieNotice } from "./CookieNotice";
import { Footer } from "./Footer";
import { closeMenu, wirePublicFrame } from "./frame";
import { Header } from "./Header";
import { ScrollToTop } from "./ScrollToTop";

/**
 * Frame of every public page: skip link, header, the lazily loaded page (spinner meanwhile; a
 * message with "Try again" when it cannot be loaded), footer. The frame's behaviour (menu, cookie
 * notice, compact header, back to top) is `wirePublicFrame`'s, as on a page that runs as islands
 * (decision 042); the language select is the application's own (its router changes the address).
 */
export function PublicLayout() {
  const { t } = useTranslation("common");
  const location = useLocation();
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => wirePublicFrame(frame.current!, { languageSelects: false }), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu after every navigation, the switch to another language's address included
  useEffect(() => closeMenu(frame.current!), [location.key]);
  return (
    <div ref={frame} className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded focus:bg-white focus:p-3"
      >
        {t("nav.skipToContent")}
      </a>
      <Header />
      <main id="main" className="flex-1">
        <LoadBoundary resetKey={location.pathname}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </LoadBoundary>
      </main>
      <Footer />
      <ScrollToTop />
      <CookieNotice />
    </div>
  );
}
