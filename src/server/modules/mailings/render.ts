import type { Language } from "../../../shared/i18n/languages";
import type { MailingAudience, MailingContent } from "../../../shared/schemas/mailings";
import type { LocalizedText } from "../../db/schema";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { listUnsubscribeHeaders, unsubscribeUrl } from "../inquiries";
import { type EmailBlock, type RenderedEmail, renderEmail } from "../mail";
import { markupBlocks } from "./markup";

/** What a mailing's e-mails say besides the writer's words. */
export interface MailingFrame {
  audience: MailingAudience;
  /** The name of the filter's cohort, if any. */
  cohortName: LocalizedText | null;
  /** The public origin, for the unsubscribe link. */
  origin: string;
}

/** A message in one language, ready to queue, with its extra headers. */
export interface MailingEmail extends RenderedEmail {
  /** `List-Unsubscribe` and `List-Unsubscribe-Post` of a newsletter (RFC 2369, RFC 8058); none otherwise. */
  headers?: Record<string, string>;
  /** True when the language has no text of its own and the English is used. */
  fallback: boolean;
}

/** Newsletter mailings go to subscribers; every other to applicants or a waiting list. */
export const mailingKind = (audience: MailingAudience) =>
  audience.kind === "newsletter" ? "newsletter" : "service";

/**
 * The e-mail of a message for a reader of `reader`'s language (docs/product/back-office.md#messages):
 * in that language when the message has a text in it, else wholly in English (subject, text, why,
 * links: `fallback`); the text's paragraphs, lists and links
 * (`markupBlocks`: the writer's words are never HTML); then, small, why the person receives it (a
 * service message needs no consent but says so), and for the newsletter the one-click unsubscribe
 * link, also in the headers. `unsubscribeToken`: the subscriber's (newsletter). `note`: a line
 * first of all (the writer's test).
 */
export function renderMailing(
  content: MailingContent,
  reader: Language,
  frame: MailingFrame,
  options: { unsubscribeToken?: string | null; note?: string } = {},
): MailingEmail {
  const fallback = reader !== "en" && content.body[reader].trim() === "";
  // A reader whose language has no text gets the whole e-mail in English, not a mix of languages.
  const language: Language = fallback ? "en" : reader;
  const subject = content.subject[language].trim() || content.subject.en;
  const body = content.body[language];
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.mailing.${key}`, vars);
  const cohort = frame.cohortName ? localize(frame.cohortName, language) : null;
  const why =
    frame.audience.kind === "newsletter"
      ? k("whyNewsletter")
      : frame.audience.kind === "waitingList"
        ? k("whyWaitingList", { cohort: cohort ?? "" })
        : cohort
          ? k("whyApplicantsCohort", { cohort })
          : k("whyApplicants");
  const blocks: EmailBlock[] = [
    ...(options.note ? [{ kind: "small" as const, text: options.note }] : []),
    ...markupBlocks(body),
    { kind: "small", text: why },
  ];
  let headers: Record<string, string> | undefined;
  if (frame.audience.kind === "newsletter" && options.unsubscribeToken) {
    blocks.push({
      kind: "link",
      label: k("unsubscribe"),
      url: unsubscribeUrl(frame.origin, language, options.unsubscribeToken),
    });
    headers = listUnsubscribeHeaders(frame.origin, options.unsubscribeToken);
  }
  return { ...renderEmail(language, subject, blocks), headers, fallback };
}
