import {
  CalendarDays,
  CircleHelp,
  CreditCard,
  Handshake,
  LayoutDashboard,
  Plane,
  QrCode,
  UserRound,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { PortalShell } from "../../components/account/PortalShell";
import { RequireSession, useLogout } from "../../lib/session";

/** The portal's pages (docs/product/portals.md#student-portal), in the navigation's order; labels in `profile:nav`. */
export const PORTAL_PAGES = [
  { to: "/student/dashboard", key: "dashboard", icon: LayoutDashboard },
  { to: "/student/payment", key: "payment", icon: CreditCard },
  { to: "/student/program", key: "program", icon: CalendarDays },
  { to: "/student/trip", key: "trip", icon: Plane },
  { to: "/student/qrcode", key: "qrcode", icon: QrCode },
  { to: "/student/faq", key: "faq", icon: CircleHelp },
  { to: "/student/partners", key: "partners", icon: Handshake },
  { to: "/student/profile", key: "profile", icon: UserRound },
] as const;

/**
 * The protected student portal (docs/product/portals.md#student-portal; docs/product/portals.md#route-guards): session guard, then the portal shell (the
 * school, who is signed in, the portal's language, Log out; the navigation to every portal page;
 * the page).
 */
export default function StudentLayout() {
  const { t } = useTranslation(["account", "profile"]);
  const logout = useLogout("student");
  return (
    <RequireSession account="student">
      {(user) => (
        <PortalShell
          area={t("account:portal.studentArea")}
          greeting={t("account:portal.greeting", { name: user.firstName })}
          navigation={{
            label: t("profile:nav.label"),
            menu: t("profile:nav.menu"),
            close: t("profile:nav.close"),
            items: PORTAL_PAGES.map(({ to, key, icon }) => ({ to, icon, label: t(`profile:nav.${key}`) })),
          }}
          signOut={{
            label: t("account:portal.logout"),
            onSignOut: () => logout.mutate(),
            pending: logout.isPending,
          }}
        />
      )}
    </RequireSession>
  );
}
