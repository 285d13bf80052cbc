import { VerifyEmailView } from "../../../components/account/auth";

/** /affiliate/verify-email?token=…: confirms the partner's e-mail address and shows the result. */
export default function AffiliateVerifyEmailPage() {
  return <VerifyEmailView account="affiliate" />;
}
