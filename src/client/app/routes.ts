import type { ComponentType } from "react";
import type { Namespace } from "../../shared/i18n/namespaces";

/**
 * Every route of the site (docs/product/portals.md#public-site), in one table used by the browser router and by the server's
 * prerenderer: which module renders it, which translation namespaces it needs, its title and
 * description keys, whether the server may cache its HTML, and what catalogue data it shows.
 * Aliases (docs/product/portals.md#legal-pages) are redirected by the server to `canonical`.
 */
export interface RouteDef {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
  namespaces: Namespace[];
  /** `<ns>:meta.title`-style keys; the namespace's `meta.title` by default. */
  meta?: { title: string; description: string };
  /**
   * Frame of the page: the public layout (header and footer), a bare page (admin login), or a
   * protected area whose layout checks the session of its role and redirects to its login.
   */
  layout: "public" | "bare" | "admin" | "student" | "affiliate";
  /**
   * Catalogue data prerendered into the page: the summary ("catalogue"), or the summary and the
   * default school's packages, housing and add-ons ("apply", decision 009).
   */
  data?: "catalogue" | "apply";
  /**
   * Listed in sitemap.xml with its three languages and indexable (docs/product/languages.md#language-in-the-address): the public layout's
   * pages without parameters, unless `false` (steps of the payment, sign-in pages, and every page
   * an e-mailed link with a token opens: `noindex`, out of the sitemap; docs/product/languages.md#language-in-the-address).
   */
  index?: boolean;
  /**
   * The page this one duplicates, whose address its canonical link names (a partner's landing
   * page `/partner/CODE` is `/partners` with a welcome line; docs/product/languages.md#language-in-the-address). Its own path by default.
   */
  canonical?: string;
  /**
   * How the page runs in the browser (decision 042): "islands", a content page whose HTML is all
   * there is, with only the small script of the frame's interactive parts (app/islands.ts); "app"
   * (the default), the application, which hydrates the page (forms, the wizard, portals, pages
   * opened from an e-mail's link); "app-when-used", a page that runs as islands until the visitor
   * starts using it, when the application takes it over (/apply: the wizard's first step is in the
   * HTML, its files are fetched ahead at idle priority).
   */
  script?: "islands" | "app" | "app-when-used";
}

const site = (
  path: string,
  ns: Namespace,
  load: RouteDef["load"],
  extra: Partial<RouteDef> = {},
): RouteDef => ({
  path,
  load,
  namespaces: [ns],
  layout: "public",
  ...extra,
});

export const ROUTES: RouteDef[] = [
  site("/", "home", () => import("../features/public-site/pages/HomePage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/program", "program", () => import("../features/public-site/pages/ProgramPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/for-parents", "parents", () => import("../features/public-site/pages/ParentsPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/for-universities", "universities", () => import("../features/public-site/pages/UniversitiesPage"), {
    namespaces: ["universities", "forms"],
  }),
  site("/campus-life", "campus", () => import("../features/public-site/pages/CampusLifePage"), {
    script: "islands",
  }),
  site("/faq", "faq", () => import("../features/public-site/pages/FaqPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site(
    "/affiliate-program",
    "affiliate",
    () => import("../features/public-site/pages/AffiliateProgramPage"),
    { script: "islands" },
  ),
  site("/courses", "courses", () => import("../features/public-site/pages/CoursesPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/testimonials", "testimonials", () => import("../features/public-site/pages/TestimonialsPage"), {
    script: "islands",
  }),
  site("/partners", "partners", () => import("../features/public-site/pages/PartnersPage"), {
    script: "islands",
  }),
  site("/partner/:code?", "partners", () => import("../features/public-site/pages/PartnersPage"), {
    canonical: "/partners",
  }),
  site("/student-pass/:token", "studentPass", () => import("../features/public-site/pages/StudentPassPage"), {
    index: false,
  }),
  site(
    "/verify/visa-letter/:token",
    "letters",
    () => import("../features/public-site/pages/VisaLetterVerifyPage"),
    { index: false },
  ),
  // The waiting list of a full cohort (docs/product/portals.md#navigation): its own lazily loaded pages, not the landing page's bundle.
  site("/waiting-list/offer/:token", "waitingList", () => import("../features/waiting-list/OfferPage"), {
    index: false,
    meta: { title: "waitingList:offer.meta.title", description: "waitingList:meta.description" },
  }),
  site("/waiting-list/leave/:token", "waitingList", () => import("../features/waiting-list/LeavePage"), {
    index: false,
    meta: { title: "waitingList:leave.meta.title", description: "waitingList:meta.description" },
  }),
  site("/waiting-list/:cohortId", "waitingList", () => import("../features/waiting-list/JoinPage"), {
    data: "catalogue",
  }),
  site("/resources", "resources", () => import("../features/public-site/pages/ResourcesPage"), {
    script: "islands",
  }),
  site("/contact", "contact", () => import("../features/public-site/pages/ContactPage"), {
    namespaces: ["contact", "forms"],
  }),
  // The newsletter (docs/product/portals.md#newsletter): sign-up, and the pages its e-mailed links open.
  site("/newsletter", "forms", () => import("../features/public-site/pages/NewsletterPage")),
  site("/newsletter/confirm", "forms", () => import("../features/public-site/pages/NewsletterLinkPage"), {
    index: false,
    meta: { title: "forms:link.confirm.title", description: "forms:meta.description" },
  }),
  site("/newsletter/unsubscribe", "forms", () => import("../features/public-site/pages/NewsletterLinkPage"), {
    index: false,
    meta: { title: "forms:link.unsubscribe.title", description: "forms:meta.description" },
  }),
  site("/accessibility", "accessibility", () => import("../features/public-site/pages/AccessibilityPage"), {
    script: "islands",
  }),
  site("/privacy-policy", "legal", () => import("../features/public-site/pages/PrivacyPolicyPage"), {
    script: "islands",
    meta: { title: "legal:privacy.meta.title", description: "legal:privacy.meta.description" },
  }),
  site("/terms", "legal", () => import("../features/public-site/pages/TermsPage"), {
    script: "islands",
    meta: { title: "legal:terms.meta.title", description: "legal:terms.meta.description" },
  }),
  site("/cookie-policy", "legal", () => import("../features/public-site/pages/CookiePolicyPage"), {
    script: "islands",
    meta: { title: "legal:cookies.meta.title", description: "legal:cookies.meta.description" },
  }),
  site("/gdpr", "legal", () => import("../features/public-site/pages/GdprPage"), {
    script: "islands",
    meta: { title: "legal:gdpr.meta.title", description: "legal:gdpr.meta.description" },
  }),
  site("/apply", "apply", () => import("../features/apply/ApplyPage"), {
    data: "apply",
    script: "app-when-used",
  }),
  site("/apply/payment", "apply", () => import("../features/apply/ApplyPage"), { index: false }),
  site("/apply/success", "apply", () => import("../features/apply/ApplySuccessPage"), {
    index: false,
    meta: { title: "apply:success.meta.title", description: "apply:meta.description" },
  }),
  site("/apply/resume", "apply", () => import("../features/apply/ResumePage"), {
    index: false,
    meta: { title: "apply:resume.meta.title", description: "apply:resume.meta.description" },
  }),
  site("/apply/reminders/stop", "apply", () => import("../features/apply/StopRemindersPage"), {
    index: false,
    meta: { title: "apply:stopReminders.meta.title", description: "apply:resume.meta.description" },
  }),
  site("/payment-success", "apply", () => import("../features/apply/PaymentSuccessPage"), {
    index: false,
    meta: { title: "apply:verify.meta.title", description: "apply:meta.description" },
  }),
];

const account = (
  path: string,
  load: RouteDef["load"],
  layout: RouteDef["layout"],
  title: string,
): RouteDef => ({
  path,
  load,
  namespaces: ["account"],
  layout,
  index: false,
  meta: { title: `account:${title}`, description: "account:meta.description" },
});
/**
 * A back-office page: admin layout, the `admin` namespace (navigation, statuses) plus the page's
 * own namespace when it has one; `title` is a key of `admin`.
 */
const admin = (
  path: string,
  load: RouteDef["load"],
  title: string,
  extraNamespaces: RouteDef["namespaces"] = [],
): RouteDef => ({
  path,
  load,
  namespaces: ["admin", ...extraNamespaces],
  layout: "admin",
  meta: { title: `admin:${title}`, description: "admin:meta.description" },
});

/** Sign-in pages and the protected areas of the three roles (docs/product/portals.md#partner-area, "Admin", "Student portal"). */
ROUTES.push(
  account(
    "/student/login",
    () => import("../features/student-portal/pages/StudentLoginPage"),
    "public",
    "student.login.title",
  ),
  account(
    "/student/register",
    () => import("../features/student-portal/pages/StudentRegisterPage"),
    "public",
    "student.register.title",
  ),
  account(
    "/student/reset-password",
    () => import("../features/student-portal/pages/StudentResetPasswordPage"),
    "public",
    "reset.title",
  ),
  account(
    "/student/verify-email",
    () => import("../features/student-portal/pages/StudentVerifyEmailPage"),
    "public",
    "verify.title",
  ),
  {
    ...account(
      "/student/dashboard",
      () => import("../features/student-portal/pages/StudentDashboardPage"),
      "student",
      "student.dashboard.title",
    ),
    // The portal entries section (features/student-portal/components/PortalEntries.tsx); the
    // navigation's labels (StudentLayout) are in `profile`.
    namespaces: ["account", "portal", "profile", "letters"],
  },
  {
    ...account(
      "/student/profile",
      () => import("../features/student-portal/pages/StudentProfilePage"),
      "student",
      "student.dashboard.title",
    ),
    namespaces: ["account", "profile"],
    meta: { title: "profile:meta.title", description: "profile:meta.description" },
  },
  {
    ...account(
      "/student/confirm-email",
      () => import("../features/student-portal/pages/StudentConfirmEmailPage"),
      "public",
      "verify.title",
    ),
    namespaces: ["account", "profile"],
    meta: { title: "profile:confirmEmail.title", description: "profile:meta.description" },
  },
  {
    ...account(
      "/student/payment",
      () => import("../features/student-portal/pages/StudentPaymentPage"),
      "student",
      "title",
    ),
    namespaces: ["balance", "account", "documents"],
    meta: { title: "balance:meta.title", description: "balance:meta.description" },
  },
  {
    ...account(
      "/student/payment-success",
      () => import("../features/student-portal/pages/StudentPaymentSuccessPage"),
      "student",
      "success.title",
    ),
    namespaces: ["balance", "account"],
    meta: { title: "balance:success.title", description: "balance:meta.description" },
  },
  // The cohort's pages (docs/product/portals.md#cohort-pages): programme, trip, questions and partners.
  ...(
    [
      ["/student/program", () => import("../features/student-portal/pages/StudentProgramPage"), "program"],
      ["/student/trip", () => import("../features/student-portal/pages/StudentTripPage"), "trip"],
      ["/student/faq", () => import("../features/student-portal/pages/StudentFaqPage"), "faq"],
      ["/student/partners", () => import("../features/student-portal/pages/StudentPartnersPage"), "partners"],
    ] as const
  ).map(
    ([path, load, page]): RouteDef => ({
      path,
      load,
      // The trip page's visa letter section (components/VisaLetterCard.tsx).
      namespaces: page === "trip" ? ["account", "cohort", "letters"] : ["account", "cohort"],
      layout: "student",
      meta: { title: `cohort:meta.${page}`, description: "cohort:meta.description" },
    }),
  ),
  {
    // The student pass and its QR code (docs/product/admissions.md#student-pass); statuses in words come from `account`.
    ...account(
      "/student/qrcode",
      () => import("../features/student-portal/pages/StudentPassPortalPage"),
      "student",
      "student.dashboard.title",
    ),
    namespaces: ["account", "studentPass"],
    meta: { title: "studentPass:mine.meta.title", description: "studentPass:mine.meta.description" },
  },
  account(
    "/affiliate/register",
    () => import("../features/affiliate-portal/pages/AffiliateRegisterPage"),
    "public",
    "affiliate.register.title",
  ),
  account(
    "/affiliate/register-success",
    () => import("../features/affiliate-portal/pages/AffiliateRegisterSuccessPage"),
    "public",
    "affiliate.registerSuccess.title",
  ),
  account(
    "/affiliate/login",
    () => import("../features/affiliate-portal/pages/AffiliateLoginPage"),
    "public",
    "affiliate.login.title",
  ),
  account(
    "/affiliate/reset-password",
    () => import("../features/affiliate-portal/pages/AffiliateResetPasswordPage"),
    "public",
    "reset.title",
  ),
  account(
    "/affiliate/verify-email",
    () => import("../features/affiliate-portal/pages/AffiliateVerifyEmailPage"),
    "public",
    "verify.title",
  ),
  // The partner area (docs/product/portals.md#partner-area): its own texts, `account` for the header and
  // the statuses, `profile` for the language switcher's label.
  ...(
    [
      [
        "/affiliate/dashboard",
        () => import("../features/affiliate-portal/pages/AffiliateDashboardPage"),
        "dashboard",
      ],
      [
        "/affiliate/referrals",
        () => import("../features/affiliate-portal/pages/AffiliateReferralsPage"),
        "referrals",
      ],
      [
        "/affiliate/commissions",
        () => import("../features/affiliate-portal/pages/AffiliateCommissionsPage"),
        "commissions",
      ],
      ["/affiliate/links", () => import("../features/affiliate-portal/pages/AffiliateLinksPage"), "links"],
      [
        "/affiliate/profile",
        () => import("../features/affiliate-portal/pages/AffiliateProfilePage"),
        "profile",
      ],
    ] as const
  ).map(
    ([path, load, page]): RouteDef => ({
      path,
      load,
      namespaces: ["account", "affiliatePortal", "profile"],
      layout: "affiliate",
      meta: { title: `affiliatePortal:${page}.title`, description: "affiliatePortal:meta.description" },
    }),
  ),
  // Payout details and payouts with statements (docs/product/codes-and-partners.md#payout-runs).
  {
    path: "/affiliate/payouts",
    load: () => import("../features/affiliate-portal/pages/AffiliatePayoutsPage"),
    namespaces: ["account", "affiliatePortal", "profile", "payouts"],
    layout: "affiliate",
    meta: { title: "payouts:meta.title", description: "payouts:meta.description" },
  },
  account(
    "/admin/login",
    () => import("../features/admin/pages/AdminLoginPage"),
    "bare",
    "admin.login.title",
  ),
  account(
    "/admin/accept-invite",
    () => import("../features/admin/pages/AdminAcceptInvitePage"),
    "bare",
    "admin.invite.title",
  ),
  admin("/admin/dashboard", () => import("../features/admin/pages/AdminDashboardPage"), "dashboard.title"),
  admin(
    "/admin/applications",
    () => import("../features/admin/pages/AdminApplicationsPage"),
    "applications.title",
  ),
  admin(
    "/admin/applications/:id",
    () => import("../features/admin/pages/AdminApplicationDetailPage"),
    "applicationDetail.title",
    // The refund panel (features/admin/components/finance/RefundPanel.tsx), the invoices
    // (features/admin/components/InvoicesPanel.tsx) and the letters (components/letters).
    ["adminFinance", "documents", "letters"],
  ),
  admin("/admin/webhooks", () => import("../features/admin/pages/AdminWebhooksPage"), "webhooks.title"),
  // The server's background jobs and their last runs (decision 039): owners.
  admin("/admin/operations", () => import("../features/admin/pages/AdminOpsPage"), "ops.title"),
  // The public forms' inbox (docs/product/portals.md#public-forms).
  admin("/admin/inbox", () => import("../features/admin/pages/AdminInboxPage"), "nav.inbox", ["adminInbox"]),
  admin("/admin/inbox/subscribers", () => import("../features/admin/pages/AdminInboxPage"), "nav.inbox", [
    "adminInbox",
  ]),
  // Messages to people by filter (docs/product/back-office.md#messages).
  admin("/admin/messages", () => import("../features/admin/pages/AdminMessagesPage"), "nav.messages", [
    "adminMessages",
  ]),
  // Catalogue (docs/product/back-office.md#catalogue-admin); "new" before ":id".
  admin("/admin/courses", () => import("../features/admin/pages/AdminCoursesPage"), "nav.courses", [
    "adminCatalogue",
  ]),
  admin(
    "/admin/summer-schools/new",
    () => import("../features/admin/pages/AdminSummerSchoolNewPage"),
    "nav.courses",
    ["adminCatalogue"],
  ),
  admin(
    "/admin/summer-schools/:id",
    () => import("../features/admin/pages/AdminSummerSchoolPage"),
    "nav.courses",
    // The programme and trip editor (components/catalogue/CohortGuideForm.tsx) and the cohort's
    // certificates of completion (components/letters).
    ["adminCatalogue", "cohort", "letters"],
  ),
  admin("/admin/packages", () => import("../features/admin/pages/AdminPackagesPage"), "nav.courses", [
    "adminCatalogue",
  ]),
  admin("/admin/housing", () => import("../features/admin/pages/AdminHousingPage"), "nav.courses", [
    "adminCatalogue",
  ]),
  admin("/admin/add-ons", () => import("../features/admin/pages/AdminAddOnsPage"), "nav.courses", [
    "adminCatalogue",
  ]),
  admin(
    "/admin/courses/:schoolId/add-ons",
    () => import("../features/admin/pages/AdminAddOnsPage"),
    "nav.courses",
    ["adminCatalogue"],
  ),
  admin("/admin/codes", () => import("../features/admin/pages/AdminCodesPage"), "nav.codes", ["adminCodes"]),
  admin("/admin/codes/:id", () => import("../features/admin/pages/AdminCodeDetailPage"), "nav.codes", [
    "adminCodes",
  ]),
  admin("/admin/affiliates", () => import("../features/admin/pages/AdminAffiliatesPage"), "nav.affiliates", [
    "adminCodes",
  ]),
  admin(
    "/admin/affiliates/:id",
    () => import("../features/admin/pages/AdminAffiliateDetailPage"),
    "nav.affiliates",
    ["adminCodes"],
  ),
  admin("/admin/finances", () => import("../features/admin/pages/AdminFinancesPage"), "nav.finances", [
    "adminFinance",
  ]),
  // Payout runs (docs/product/codes-and-partners.md#payout-runs): finance and owners.
  admin("/admin/payouts", () => import("../features/admin/pages/AdminPayoutsPage"), "nav.payouts", [
    "payouts",
  ]),
  admin("/admin/students", () => import("../features/admin/pages/AdminStudentsPage"), "nav.students", [
    "adminPeople",
  ]),
  admin("/admin/students/add", () => import("../features/admin/pages/AdminStudentAddPage"), "nav.students", [
    "adminPeople",
  ]),
  admin(
    "/admin/students/:id",
    () => import("../features/admin/pages/AdminStudentDetailPage"),
    "nav.students",
    ["adminPeople"],
  ),
  // Students' erasure requests (docs/product/portals.md#student-profile); texts in `profile`.
  admin(
    "/admin/erasure-requests",
    () => import("../features/admin/pages/AdminErasureRequestsPage"),
    "nav.erasureRequests",
    ["profile"],
  ),
  admin("/admin/team", () => import("../features/admin/pages/AdminTeamPage"), "nav.team", ["adminPeople"]),
  admin("/admin/audit", () => import("../features/admin/pages/AdminAuditPage"), "nav.audit", ["adminPeople"]),
  admin(
    "/admin/translations",
    () => import("../features/admin/pages/AdminTranslationsPage"),
    "nav.translations",
    ["adminContent"],
  ),
  admin(
    "/admin/student-dashboard-management",
    () => import("../features/admin/pages/AdminStudentDashboardPage"),
    "nav.studentPortal",
    ["adminContent"],
  ),
);

/** Alias → canonical path (docs/product/portals.md#legal-pages). */
export const ALIASES: Record<string, string> = {
  "/terms-conditions": "/terms",
  "/cookie-policy-new": "/cookie-policy",
  "/privacy": "/privacy-policy",
};

import { matchPath } from "react-router";

/** The route that renders `pathname`, or undefined (404). */
export function matchRoute(pathname: string): RouteDef | undefined {
  return ROUTES.find((route) => matchPath({ path: route.path, end: true }, pathname));
}

/** Title and description keys of a route: its own, else `<namespace>:meta.*`. */
export function metaKeys(route: RouteDef): { title: string; description: string } {
  const ns = route.namespaces[0];
  return route.meta ?? { title: `${ns}:meta.title`, description: `${ns}:meta.description` };
}
