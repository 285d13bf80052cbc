import { useTranslation } from "react-i18next";
import { RequireSession } from "../../lib/session";
import { PortalFrame } from "./components/PortalFrame";

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
