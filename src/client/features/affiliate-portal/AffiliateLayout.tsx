import { Coins, LayoutDashboard, Link2, UserRound, Users, Wallet } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PortalShell } from "../../components/account/PortalShell";
import { RequireSession, useLogout } from "../../lib/session";

/**
 * The partner area's pages (docs/product/portals.md#partner-area), in the navigation's order; labels in
 * `affiliatePortal:nav`. The payouts pages are built separately (docs/product/codes-and-partners.md#payout-runs).
 */
export const AFFILIATE_PAGES = [
  { to: "/affiliate/dashboard", key: "dashboard", icon: LayoutDashboard },
  { to: "/affiliate/referrals", key: "referrals", icon: Users },
  { to: "/affiliate/commissions", key: "commissions", icon: Coins },
  { to: "/affiliate/payouts", key: "payouts", icon: Wallet },
  { to: "/affiliate/links", key: "links", icon: Link2 },
  { to: "/affiliate/profile", key: "profile", icon: UserRound },
] as const;

/**
 * The protected partner area (docs/product/portals.md#partner-area; docs/product/portals.md#route-guards): session guard (not retried), then the portal
 * shell (the school, who is signed in, the language of the pages, Log out; the navigation to every
 * page of the area once the account is approved; the page).
 */
export default function AffiliateLayout() {
  const { t } = useTranslation(["account", "affiliatePortal"]);
  const logout = useLogout("affiliate");
  return (
    <RequireSession account="affiliate">
      {(user) => (
        <PortalShell
          area={t("account:portal.affiliateArea")}
          greeting={t("account:portal.greeting", { name: user.name })}
          languageLabel={t("affiliatePortal:nav.language")}
          navigation={
            user.status === "approved"
              ? {
                  label: t("affiliatePortal:nav.label"),
                  menu: t("affiliatePortal:nav.menu"),
                  close: t("affiliatePortal:nav.close"),
                  items: AFFILIATE_PAGES.map(({ to, key, icon }) => ({
                    to,
                    icon,
                    label: t(`affiliatePortal:nav.${key}`),
                  })),
                }
              : null
          }
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
