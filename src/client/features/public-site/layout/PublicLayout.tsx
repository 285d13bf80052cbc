import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { LoadBoundary } from "../../../components/ui/LoadBoundary";
import { Spinner } from "../../../components/ui/Spinner";
import { CookieNotice } from "./CookieNotice";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { ScrollToTop } from "./ScrollToTop";

/**
 * Frame of every public page: skip link, header, the lazily loaded page (spinner meanwhile; a
 * message with "Try again" when it cannot be loaded), footer.
 */
export function PublicLayout() {
  const { t } = useTranslation("common");
  const location = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
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
