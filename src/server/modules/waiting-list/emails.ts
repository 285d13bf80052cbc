import { formatDate, formatForPeople } from "../../../shared/dates";
import { type Language, LOCALE_OF } from "../../../shared/i18n/languages";
import { rangeOf } from "../../../shared/i18n/punctuation";
import { SCHOOL_TIME_ZONE } from "../../../shared/time";
import { t } from "../../lib/i18n";
import { paragraphs, type RenderedEmail, renderEmail } from "../mail";

const momentFormats = new Map<Language, Intl.DateTimeFormat>();

/** A moment written for people in `language`, in The Hague's time (e.g. "28 November 2026, 10:00"). */
export function momentForPeople(at: Date, language: Language): string {
  let format = momentFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE_OF[language], {
      dateStyle: "long",
      timeStyle: "short",
      timeZone: SCHOOL_TIME_ZONE,
    });
    momentFormats.set(language, format);
  }
  return formatForPeople(format, at, language);
}

/** The cohort an e-mail is about: its name in the recipient's language and its dates (`yyyy-mm-dd`). */
export interface CohortOfEmail {
  program: string;
  startDate: string;
  endDate: string;
}

/** An e-mail made of paragraphs, one call to action (or none) and small print after it. */
function render(
  language: Language,
  subject: string,
  texts: string[],
  action: { label: string; url: string } | null,
  after: string[],
): RenderedEmail {
  return renderEmail(language, subject, [
    ...paragraphs(texts),
    ...(action ? [{ kind: "action", ...action } as const] : []),
    ...after.map((text) => ({ kind: "small", text }) as const),
  ]);
}

const dates = (cohort: CohortOfEmail, language: Language) =>
  rangeOf(language, formatDate(cohort.startDate, language), formatDate(cohort.endDate, language));

/**
 * "You are on the waiting list" (keys `emails.waitingList.joined.*` of common.json), in the
 * language the person chose (docs/product/catalogue-and-pricing.md#cohorts): the cohort and its dates, what happens when a place frees
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
