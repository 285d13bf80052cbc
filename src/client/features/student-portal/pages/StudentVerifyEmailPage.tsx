import { VerifyEmailView } from "../../../components/account/auth";

/** /student/verify-email?token=…: confirms the student's e-mail address and shows the result. */
export default function StudentVerifyEmailPage() {
  return <VerifyEmailView account="student" />;
}
