import { formatDate } from "../../../shared/dates";
import { type Language, LOCALE_OF } from "../../../shared/i18n/languages";
import { SCHOOL_TIME_ZONE } from "../../../shared/time";
import { t } from "../../lib/i18n";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A moment written for people in `language`, in The Hague's time (e.g. "28 November 2026, 10:00"). */
export function momentForPeople(at: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALE_OF[language], {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: SCHOOL_TIME_ZONE,
  }).format(at);
}

/** The cohort an e-mail is about: its name in the recipient's language and its dates (`yyyy-mm-dd`). */
export interface CohortOfEmail {
  program: string;
  startDate: string;
  endDate: string;
}

/** Subject, text and HTML of an e-mail made of paragraphs and one call to action. */
function render(
  language: Language,
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string } | null,
  after: string[],
) {
  const text = [...paragraphs, ...(action ? [`${action.label}\n${action.url}`] : []), ...after].join("\n\n");
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:600px;margin:auto">
<h1 style="color:#0b3a5b;font-size:22px">${escapeHtml(subject)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
${
  action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0b3a5b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#475569">${escapeHtml(action.url)}</p>`
    : ""
}
${after.map((p) => `<p style="font-size:13px;color:#475569">${escapeHtml(p)}</p>`).join("\n")}</body></html>`;
  return { subject, text, html };
}

const dates = (cohort: CohortOfEmail, language: Language) =>
  `${formatDate(cohort.startDate, language)} – ${formatDate(cohort.endDate, language)}`;

/**
 * "You are on the waiting list" (keys `emails.waitingList.joined.*` of common.json), in the
 * language the person chose (issue 13): the cohort and its dates, what happens when a place frees
 * up (an offer held for `offerHours` hours), and the link to leave the list
 * (`<origin>/waiting-list/leave/<token>`). Returns subject, text and HTML (values escaped).
 */
export function waitingListJoinedEmail(input: {
  language: Language;
  name: string;
  cohort: CohortOfEmail;
  offerHours: number;
  leaveUrl: string;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.waitingList.joined.${key}`, vars);
  const vars = {
    program: input.cohort.program,
    dates: dates(input.cohort, language),
    hours: input.offerHours,
  };
  return render(
    language,
    k("subject", vars),
    [k("greeting", { name: input.name }), k("intro", vars), k("next", vars)],
    null,
    [
      k("leave", { url: input.leaveUrl }),
      k("privacy"),
      k("questions", { email: input.supportEmail }),
      k("signature"),
    ],
  );
}

/**
 * "A place is free for you" (keys `emails.waitingList.offer.*`), in the person's language: the
 * cohort, until when the place is held (The Hague time), the link that opens the application for
 * it (`<origin>/waiting-list/offer/<token>`) and the link to leave the list.
 */
export function waitingListOfferEmail(input: {
  language: Language;
  name: string;
  cohort: CohortOfEmail;
  expiresAt: Date;
  offerUrl: string;
  leaveUrl: string;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.waitingList.offer.${key}`, vars);
  const vars = {
    program: input.cohort.program,
    dates: dates(input.cohort, language),
    until: momentForPeople(input.expiresAt, language),
  };
  return render(
    language,
    k("subject", vars),
    [k("greeting", { name: input.name }), k("intro", vars), k("hold", vars)],
    { label: k("action"), url: input.offerUrl },
    [
      k("notInterested", { url: input.leaveUrl }),
      k("questions", { email: input.supportEmail }),
      k("signature"),
    ],
  );
}

/**
 * "Your offer has lapsed" (keys `emails.waitingList.lapsed.*`): the place held for the person was
 * offered to the next in line; they are off the list and may join again.
 */
export function waitingListLapsedEmail(input: {
  language: Language;
  name: string;
  cohort: CohortOfEmail;
  joinUrl: string;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.waitingList.lapsed.${key}`, vars);
  const vars = { program: input.cohort.program, dates: dates(input.cohort, language) };
  return render(
    language,
    k("subject", vars),
    [k("greeting", { name: input.name }), k("intro", vars)],
    { label: k("action"), url: input.joinUrl },
    [k("questions", { email: input.supportEmail }), k("signature")],
  );
}
