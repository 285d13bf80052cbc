/**
 * The auth module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Accounts and sessions of students, partners and admins: sign-in, registration, e-mail
 * verification, password reset, the admin team, the admin guard.
 */
export { accountEmail } from "./emails";
export { studentInvitationStep } from "./fulfilment";
export { assertPasswordPolicy, hashPassword, verifyPassword } from "./passwords";
export { AuthService } from "./service";
export { type SessionService, sessionCookieName } from "./sessions";
export { referralCodeBase } from "./shapes";
export { queueStudentInvite } from "./student-invite";
