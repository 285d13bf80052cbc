import { useTranslation } from "react-i18next";
import { PortalFrame } from "../../components/account/PortalFrame";
import { RequireSession } from "../../lib/session";

/** The protected affiliate area (spec §2): session guard (not retried), then the portal header and the page. */
export default function AffiliateLayout() {
  const { t } = useTranslation("account");
  return (
    <RequireSession account="affiliate">
      {(user) => (
        <PortalFrame
          account="affiliate"
          area={t("portal.affiliateArea")}
          greeting={t("portal.greeting", { name: user.name })}
        />
      )}
    </RequireSession>
  );
}
