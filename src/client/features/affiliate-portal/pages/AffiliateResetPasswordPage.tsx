import { ResetPasswordView } from "../../../components/account/auth";

/** /affiliate/reset-password: ask for a link, or with ?token= choose a new password. */
export default function AffiliateResetPasswordPage() {
  return <ResetPasswordView account="affiliate" />;
}
