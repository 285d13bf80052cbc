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
  /**
   * The page's module, as the build's manifest names it (`src/client/features/…Page.tsx`): the
   * server looks up by it the files a page that runs as islands fetches ahead for the application
   * (`script: "app-when-used"`, decision 042).
   */
  module: string;
  /** Loads the page's module (a file of its own in the build). */
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
   * starts using it, when the application takes it over (/apply, whose wizard's first step is in the
   * HTML, and the public forms: the page's files and the application's are fetched ahead at idle
   * priority).
   */
  script?: "islands" | "app" | "app-when-used";
}

/**
 * Every page module under features/, each a file of its own that loads when its route is first
 * shown. A module found here is only a file in the build until a route names it (`lazyPage`).
 */
const PAGE_MODULES = import.meta.glob<{ default: ComponentType }>([
  "../features/**/*Page.tsx",
  // Parts of pages, imported by them, and the page of an unknown address, which the application
  // carries (App.tsx).
  "!../features/**/components/**",
  "!../features/public-site/pages/NotFoundPage.tsx",
]);

/** A route's page module and its loader (`RouteDef.module`, `RouteDef.load`). */
type PageSource = Pick<RouteDef, "module" | "load">;

/**
 * The page module `features/<name>.tsx`, for a route of the table. Throws when there is no such
 * module (a mistyped name fails every test that loads the table, not a visitor's click).
 */
function lazyPage(name: string): PageSource {
  const load = PAGE_MODULES[`../features/${name}.tsx`];
  if (!load) throw new Error(`routes: no page module src/client/features/${name}.tsx`);
  return { module: `src/client/features/${name}.tsx`, load };
}

const site = (path: string, ns: Namespace, source: PageSource, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  ...source,
  namespaces: [ns],
  layout: "public",
  ...extra,
});

export const ROUTES: RouteDef[] = [
  site("/", "home", lazyPage("public-site/pages/HomePage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/program", "program", lazyPage("public-site/pages/ProgramPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/for-parents", "parents", lazyPage("public-site/pages/ParentsPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/for-universities", "universities", lazyPage("public-site/pages/UniversitiesPage"), {
    namespaces: ["universities", "forms"],
    script: "app-when-used",
  }),
  site("/campus-life", "campus", lazyPage("public-site/pages/CampusLifePage"), {
    script: "islands",
  }),
  site("/faq", "faq", lazyPage("public-site/pages/FaqPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/affiliate-program", "affiliate", lazyPage("public-site/pages/AffiliateProgramPage"), {
    script: "islands",
  }),
  site("/courses", "courses", lazyPage("public-site/pages/CoursesPage"), {
    script: "islands",
    data: "catalogue",
  }),
  site("/testimonials", "testimonials", lazyPage("public-site/pages/TestimonialsPage"), {
    script: "islands",
  }),
  site("/partners", "partners", lazyPage("public-site/pages/PartnersPage"), {
    script: "islands",
  }),
  site("/partner/:code?", "partners", lazyPage("public-site/pages/PartnersPage"), {
    canonical: "/partners",
  }),
  site("/student-pass/:token", "studentPass", lazyPage("public-site/pages/StudentPassPage"), {
    index: false,
  }),
  site("/verify/visa-letter/:token", "letters", lazyPage("public-site/pages/VisaLetterVerifyPage"), {
    index: false,
  }),
  // The waiting list of a full cohort (docs/product/portals.md#navigation): its own lazily loaded pages, not the landing page's bundle.
  site("/waiting-list/offer/:token", "waitingList", lazyPage("waiting-list/OfferPage"), {
    index: false,
    meta: { title: "waitingList:offer.meta.title", description: "waitingList:meta.description" },
  }),
  site("/waiting-list/leave/:token", "waitingList", lazyPage("waiting-list/LeavePage"), {
    index: false,
    meta: { title: "waitingList:leave.meta.title", description: "waitingList:meta.description" },
  }),
  site("/waiting-list/:cohortId", "waitingList", lazyPage("waiting-list/JoinPage"), {
    data: "catalogue",
    script: "app-when-used",
  }),
  site("/resources", "resources", lazyPage("public-site/pages/ResourcesPage"), {
    script: "islands",
  }),
  site("/contact", "contact", lazyPage("public-site/pages/ContactPage"), {
    namespaces: ["contact", "forms"],
    script: "app-when-used",
  }),
  // The newsletter (docs/product/portals.md#newsletter): sign-up, and the pages its e-mailed links open.
  site("/newsletter", "forms", lazyPage("public-site/pages/NewsletterPage"), { script: "app-when-used" }),
  site("/newsletter/confirm", "forms", lazyPage("public-site/pages/NewsletterLinkPage"), {
    index: false,
    meta: { title: "forms:link.confirm.title", description: "forms:meta.description" },
  }),
  site("/newsletter/unsubscribe", "forms", lazyPage("public-site/pages/NewsletterLinkPage"), {
    index: false,
    meta: { title: "forms:link.unsubscribe.title", description: "forms:meta.description" },
  }),
  site("/accessibility", "accessibility", lazyPage("public-site/pages/AccessibilityPage"), {
    script: "islands",
  }),
  site("/privacy-policy", "legal", lazyPage("public-site/pages/PrivacyPolicyPage"), {
    script: "islands",
    meta: { title: "legal:privacy.meta.title", description: "legal:privacy.meta.description" },
  }),
  site("/terms", "legal", lazyPage("public-site/pages/TermsPage"), {
    script: "islands",
    meta: { title: "legal:terms.meta.title", description: "legal:terms.meta.description" },
  }),
  site("/cookie-policy", "legal", lazyPage("public-site/pages/CookiePolicyPage"), {
    script: "islands",
    meta: { title: "legal:cookies.meta.title", description: "legal:cookies.meta.description" },
  }),
  site("/gdpr", "legal", lazyPage("public-site/pages/GdprPage"), {
    script: "islands",
    meta: { title: "legal:gdpr.meta.title", description: "legal:gdpr.meta.description" },
  }),
  site("/apply", "apply", lazyPage("apply/ApplyPage"), {
    data: "apply",
    script: "app-when-used",
  }),
  site("/apply/payment", "apply", lazyPage("apply/ApplyPage"), { index: false }),
  site("/apply/success", "apply", lazyPage("apply/ApplySuccessPage"), {
    index: false,
    meta: { title: "apply:success.meta.title", description: "apply:meta.description" },
  }),
  site("/apply/resume", "apply", lazyPage("apply/ResumePage"), {
    index: false,
    meta: { title: "apply:resume.meta.title", description: "apply:resume.meta.description" },
  }),
  site("/apply/reminders/stop", "apply", lazyPage("apply/StopRemindersPage"), {
    index: false,
    meta: { title: "apply:stopReminders.meta.title", description: "apply:resume.meta.description" },
  }),
  site("/payment-success", "apply", lazyPage("apply/PaymentSuccessPage"), {
    index: false,
    meta: { title: "apply:verify.meta.title", description: "apply:meta.description" },
  }),
];

const account = (path: string, source: PageSource, layout: RouteDef["layout"], title: string): RouteDef => ({
  path,
  ...source,
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
  source: PageSource,
  title: string,
  extraNamespaces: RouteDef["namespaces"] = [],
): RouteDef => ({
  path,
  ...source,
  namespaces: ["admin", ...extraNamespaces],
  layout: "admin",
  meta: { title: `admin:${title}`, description: "admin:meta.description" },
});

/** Sign-in pages and the protected areas of the three roles (docs/product/portals.md#partner-area, "Admin", "Student portal"). */
ROUTES.push(
  account(
    "/student/login",
    lazyPage("student-portal/pages/StudentLoginPage"),
    "public",
    "student.login.title",
  ),
  account(
    "/student/register",
    lazyPage("student-portal/pages/StudentRegisterPage"),
    "public",
    "student.register.title",
  ),
  account(
    "/student/reset-password",
    lazyPage("student-portal/pages/StudentResetPasswordPage"),
    "public",
    "reset.title",
  ),
  account(
    "/student/verify-email",
    lazyPage("student-portal/pages/StudentVerifyEmailPage"),
    "public",
    "verify.title",
  ),
  {
    ...account(
      "/student/dashboard",
      lazyPage("student-portal/pages/StudentDashboardPage"),
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
      lazyPage("student-portal/pages/StudentProfilePage"),
      "student",
      "student.dashboard.title",
    ),
    namespaces: ["account", "profile"],
    meta: { title: "profile:meta.title", description: "profile:meta.description" },
  },
  {
    ...account(
      "/student/confirm-email",
      lazyPage("student-portal/pages/StudentConfirmEmailPage"),
      "public",
      "verify.title",
    ),
    namespaces: ["account", "profile"],
    meta: { title: "profile:confirmEmail.title", description: "profile:meta.description" },
  },
  {
    ...account("/student/payment", lazyPage("student-portal/pages/StudentPaymentPage"), "student", "title"),
    namespaces: ["balance", "account", "documents"],
    meta: { title: "balance:meta.title", description: "balance:meta.description" },
  },
  {
    ...account(
      "/student/payment-success",
      lazyPage("student-portal/pages/StudentPaymentSuccessPage"),
      "student",
      "success.title",
    ),
    namespaces: ["balance", "account"],
    meta: { title: "balance:success.title", description: "balance:meta.description" },
  },
  // The cohort's pages (docs/product/portals.md#cohort-pages): programme, trip, questions and partners.
  ...(
    [
      ["/student/program", lazyPage("student-portal/pages/StudentProgramPage"), "program"],
      ["/student/trip", lazyPage("student-portal/pages/StudentTripPage"), "trip"],
      ["/student/faq", lazyPage("student-portal/pages/StudentFaqPage"), "faq"],
      ["/student/partners", lazyPage("student-portal/pages/StudentPartnersPage"), "partners"],
    ] as const
  ).map(
    ([path, source, page]): RouteDef => ({
      path,
      ...source,
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
      lazyPage("student-portal/pages/StudentPassPortalPage"),
      "student",
      "student.dashboard.title",
    ),
    namespaces: ["account", "studentPass"],
    meta: { title: "studentPass:mine.meta.title", description: "studentPass:mine.meta.description" },
  },
  account(
    "/affiliate/register",
    lazyPage("affiliate-portal/pages/AffiliateRegisterPage"),
    "public",
    "affiliate.register.title",
  ),
  account(
    "/affiliate/register-success",
    lazyPage("affiliate-portal/pages/AffiliateRegisterSuccessPage"),
    "public",
    "affiliate.registerSuccess.title",
  ),
  account(
    "/affiliate/login",
    lazyPage("affiliate-portal/pages/AffiliateLoginPage"),
    "public",
    "affiliate.login.title",
  ),
  account(
    "/affiliate/reset-password",
    lazyPage("affiliate-portal/pages/AffiliateResetPasswordPage"),
    "public",
    "reset.title",
  ),
  account(
    "/affiliate/verify-email",
    lazyPage("affiliate-portal/pages/AffiliateVerifyEmailPage"),
    "public",
    "verify.title",
  ),
  // The partner area (docs/product/portals.md#partner-area): its own texts, `account` for the header and
  // the statuses, `profile` for the language switcher's label.
  ...(
    [
      ["/affiliate/dashboard", lazyPage("affiliate-portal/pages/AffiliateDashboardPage"), "dashboard"],
      ["/affiliate/referrals", lazyPage("affiliate-portal/pages/AffiliateReferralsPage"), "referrals"],
      ["/affiliate/commissions", lazyPage("affiliate-portal/pages/AffiliateCommissionsPage"), "commissions"],
      ["/affiliate/links", lazyPage("affiliate-portal/pages/AffiliateLinksPage"), "links"],
      ["/affiliate/profile", lazyPage("affiliate-portal/pages/AffiliateProfilePage"), "profile"],
    ] as const
  ).map(
    ([path, source, page]): RouteDef => ({
      path,
      ...source,
      namespaces: ["account", "affiliatePortal", "profile"],
      layout: "affiliate",
      meta: { title: `affiliatePortal:${page}.title`, description: "affiliatePortal:meta.description" },
    }),
  ),
  // Payout details and payouts with statements (docs/product/codes-and-partners.md#payout-runs).
  {
    path: "/affiliate/payouts",
    ...lazyPage("affiliate-portal/pages/AffiliatePayoutsPage"),
    namespaces: ["account", "affiliatePortal", "profile", "payouts"],
    layout: "affiliate",
    meta: { title: "payouts:meta.title", description: "payouts:meta.description" },
  },
  account("/admin/login", lazyPage("admin/pages/AdminLoginPage"), "bare", "admin.login.title"),
  account(
    "/admin/accept-invite",
    lazyPage("admin/pages/AdminAcceptInvitePage"),
    "bare",
    "admin.invite.title",
  ),
  admin("/admin/dashboard", lazyPage("admin/pages/AdminDashboardPage"), "dashboard.title"),
  admin("/admin/applications", lazyPage("admin/pages/AdminApplicationsPage"), "applications.title"),
  admin(
    "/admin/applications/:id",
    lazyPage("admin/pages/AdminApplicationDetailPage"),
    "applicationDetail.title",
    // The refund panel (features/admin/components/finance/RefundPanel.tsx), the invoices
    // (features/admin/components/InvoicesPanel.tsx) and the letters (components/letters).
    ["adminFinance", "documents", "letters"],
  ),
  admin("/admin/webhooks", lazyPage("admin/pages/AdminWebhooksPage"), "webhooks.title"),
  // The server's background jobs and their last runs (decision 039): owners.
  admin("/admin/operations", lazyPage("admin/pages/AdminOpsPage"), "ops.title"),
  // The public forms' inbox (docs/product/portals.md#public-forms).
  admin("/admin/inbox", lazyPage("admin/pages/AdminInboxPage"), "nav.inbox", ["adminInbox"]),
  admin("/admin/inbox/subscribers", lazyPage("admin/pages/AdminInboxPage"), "nav.inbox", ["adminInbox"]),
  // Messages to people by filter (docs/product/back-office.md#messages).
  admin("/admin/messages", lazyPage("admin/pages/AdminMessagesPage"), "nav.messages", ["adminMessages"]),
  // Catalogue (docs/product/back-office.md#catalogue-admin); "new" before ":id".
  admin("/admin/courses", lazyPage("admin/pages/AdminCoursesPage"), "nav.courses", ["adminCatalogue"]),
  admin("/admin/summer-schools/new", lazyPage("admin/pages/AdminSummerSchoolNewPage"), "nav.courses", [
    "adminCatalogue",
  ]),
  admin(
    "/admin/summer-schools/:id",
    lazyPage("admin/pages/AdminSummerSchoolPage"),
    "nav.courses",
    // The programme and trip editor (components/catalogue/CohortGuideForm.tsx) and the cohort's
    // certificates of completion (components/letters).
    ["adminCatalogue", "cohort", "letters"],
  ),
  admin("/admin/packages", lazyPage("admin/pages/AdminPackagesPage"), "nav.courses", ["adminCatalogue"]),
  admin("/admin/housing", lazyPage("admin/pages/AdminHousingPage"), "nav.courses", ["adminCatalogue"]),
  admin("/admin/add-ons", lazyPage("admin/pages/AdminAddOnsPage"), "nav.courses", ["adminCatalogue"]),
  admin("/admin/courses/:schoolId/add-ons", lazyPage("admin/pages/AdminAddOnsPage"), "nav.courses", [
    "adminCatalogue",
  ]),
  admin("/admin/codes", lazyPage("admin/pages/AdminCodesPage"), "nav.codes", ["adminCodes"]),
  admin("/admin/codes/:id", lazyPage("admin/pages/AdminCodeDetailPage"), "nav.codes", ["adminCodes"]),
  admin("/admin/affiliates", lazyPage("admin/pages/AdminAffiliatesPage"), "nav.affiliates", ["adminCodes"]),
  admin("/admin/affiliates/:id", lazyPage("admin/pages/AdminAffiliateDetailPage"), "nav.affiliates", [
    "adminCodes",
  ]),
  admin("/admin/finances", lazyPage("admin/pages/AdminFinancesPage"), "nav.finances", ["adminFinance"]),
  // Payout runs (docs/product/codes-and-partners.md#payout-runs): finance and owners.
  admin("/admin/payouts", lazyPage("admin/pages/AdminPayoutsPage"), "nav.payouts", ["payouts"]),
  admin("/admin/students", lazyPage("admin/pages/AdminStudentsPage"), "nav.students", ["adminPeople"]),
  admin("/admin/students/add", lazyPage("admin/pages/AdminStudentAddPage"), "nav.students", ["adminPeople"]),
  admin("/admin/students/:id", lazyPage("admin/pages/AdminStudentDetailPage"), "nav.students", [
    "adminPeople",
  ]),
  // Students' erasure requests (docs/product/portals.md#student-profile); texts in `profile`.
  admin("/admin/erasure-requests", lazyPage("admin/pages/AdminErasureRequestsPage"), "nav.erasureRequests", [
    "profile",
  ]),
  admin("/admin/team", lazyPage("admin/pages/AdminTeamPage"), "nav.team", ["adminPeople"]),
  admin("/admin/audit", lazyPage("admin/pages/AdminAuditPage"), "nav.audit", ["adminPeople"]),
  admin("/admin/translations", lazyPage("admin/pages/AdminTranslationsPage"), "nav.translations", [
    "adminContent",
  ]),
  admin(
    "/admin/student-dashboard-management",
    lazyPage("admin/pages/AdminStudentDashboardPage"),
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
