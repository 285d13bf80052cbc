import { useTranslation } from "react-i18next";
import { PortalFrame } from "../../components/account/PortalFrame";
import { RequireSession } from "../../lib/session";

/** The protected student portal (spec §2): session guard, then the portal header and the page. */
export default function StudentLayout() {
  const { t } = useTranslation("account");
  return (
    <RequireSession account="student">
      {(user) => (
        <PortalFrame
          account="student"
          area={t("portal.studentArea")}
          greeting={t("portal.greeting", { name: user.firstName })}
        />
      )}
    </RequireSession>
  );
}
