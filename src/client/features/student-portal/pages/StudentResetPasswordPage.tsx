import { ResetPasswordView } from "../components/auth";

/** /student/reset-password: ask for a link, or with ?token= choose a new password. */
export default function StudentResetPasswordPage() {
  return <ResetPasswordView account="student" />;
}
