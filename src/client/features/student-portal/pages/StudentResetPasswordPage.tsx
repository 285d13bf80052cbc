import { ResetPasswordView } from "../../../components/account/auth";

/** /student/reset-password: ask for a link, or with ?token= choose a new password. */
export default function StudentResetPasswordPage() {
  return <ResetPasswordView account="student" />;
}
