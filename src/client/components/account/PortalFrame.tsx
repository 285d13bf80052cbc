import { LogOut } from "lucide-react";
import { type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet } from "react-router";
import { useLogout } from "../../lib/session";
import { Button } from "../ui/Button";
import { Container } from "../ui/Layout";
import { Spinner } from "../ui/Spinner";

/**
 * Frame of the student and affiliate portals (spec §2: no public header and footer): a slim header
 * with the school's name, who is signed in and Log out, then the page.
 */
export function PortalFrame({
  account: role,
  area,
  greeting,
}: {
  account: "student" | "affiliate";
  /** The portal's name, e.g. "Student portal". */
  area: string;
  greeting: ReactNode;
}) {
  const { t } = useTranslation("account");
  const logout = useLogout(role);
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded focus:bg-white focus:p-3"
      >
        {t("common:nav.skipToContent")}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <Container className="flex min-h-16 flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
          <div className="min-w-0">
            <Link to="/" className="font-bold text-brand-900 hover:underline">
              {t("common:brand.name")}
            </Link>
            <p className="text-sm text-slate-700">{area}</p>
          </div>
          <div className="flex items-center gap-3">
            <p className="text-sm text-slate-800">{greeting}</p>
            <Button variant="secondary" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut aria-hidden="true" className="h-4 w-4" />
              {t("portal.logout")}
            </Button>
          </div>
        </Container>
      </header>
      <main id="main" className="flex-1">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
