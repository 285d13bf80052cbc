import { startTransition, useCallback, useEffect, useState } from "react";
import type { ApplicantFormValues } from "../../../shared/schemas/applicant";
import type { ResumedWizard } from "../../../shared/schemas/resume";

/**
 * Wizard state kept across steps and reloads (issue: "a reload on any step must not lose what was
 * entered"): in sessionStorage for this tab, while the applicant and application themselves live
 * on the server. Amounts are never kept here: the payment step always reads the server's quote.
 */
export interface WizardState {
  step: 1 | 2 | 3 | 4;
  summerSchoolId?: string;
  packageId?: string;
  housingOptionId?: string;
  selectedAddOns: string[];
  personal: Partial<ApplicantFormValues>;
  applicantId?: string;
  applicationId?: string;
  passportUrl?: string;
  passportFileName?: string;
  paymentId?: string;
  submittedAt?: string;
}

import { DRAFT_DISMISSED_KEY, WIZARD_STORAGE_KEY } from "../../lib/wizard-storage";

export { DRAFT_DISMISSED_KEY, WIZARD_STORAGE_KEY };
/** Ids of the application this tab completed last, for /apply/success. */
export const LAST_SUBMITTED_KEY = "apply.lastSubmitted";

/** The ids of the application this tab completed last. */
export function readLastSubmitted(): { applicationId?: string; applicantId?: string } {
  try {
    return JSON.parse(sessionStorage.getItem(LAST_SUBMITTED_KEY) ?? "{}");
  } catch {
    return {};
  }
}
const EMPTY: WizardState = { step: 1, selectedAddOns: [], personal: {} };

function read(): WizardState {
  if (typeof window === "undefined") return EMPTY;
  try {
    const raw = sessionStorage.getItem(WIZARD_STORAGE_KEY);
    return raw ? { ...EMPTY, ...(JSON.parse(raw) as WizardState) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** Clears the wizard (after a completed application). */
export function clearWizard() {
  try {
    const last = read();
    if (last.applicationId) {
      sessionStorage.setItem(
        LAST_SUBMITTED_KEY,
        JSON.stringify({ applicationId: last.applicationId, applicantId: last.applicantId }),
      );
    }
    sessionStorage.removeItem(WIZARD_STORAGE_KEY);
  } catch {
    /* storage unavailable */
  }
}

/**
 * The tab's whole wizard state for an application kept on the server (a used resume link, or the
 * draft this browser holds, `GET /api/resume/draft`): every field set, so nothing of what the tab
 * held before survives.
 */
export function wizardStateOf(resumed: ResumedWizard): WizardState {
  return {
    step: resumed.step,
    summerSchoolId: resumed.summerSchoolId ?? undefined,
    packageId: resumed.packageId ?? undefined,
    housingOptionId: resumed.housingOptionId ?? undefined,
    selectedAddOns: resumed.selectedAddOns,
    personal: resumed.personal as Partial<ApplicantFormValues>,
    applicantId: resumed.applicantId,
    applicationId: resumed.applicationId ?? undefined,
    passportUrl: resumed.passportUrl ?? undefined,
    passportFileName: undefined,
    paymentId: undefined,
    submittedAt: undefined,
  };
}

/** Whether this tab already answered the offer to continue the browser's saved application. */
export function draftOfferDismissed(): boolean {
  try {
    return sessionStorage.getItem(DRAFT_DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

/** Remembers for this tab that the offer was answered with "Start a new one". */
export function dismissDraftOffer() {
  try {
    sessionStorage.setItem(DRAFT_DISMISSED_KEY, "1");
  } catch {
    /* storage unavailable: the offer comes back after a reload, nothing worse */
  }
}

/**
 * Makes this tab continue an application from the server (docs/product/admissions.md#resume-links, decision
 * 028): the answer of a used resume link replaces whatever the tab held, so the wizard opens at
 * the step the applicant left with the stored details, choices and passport.
 */
export function resumeWizard(resumed: ResumedWizard) {
  const state = wizardStateOf(resumed);
  try {
    sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify(state));
  } catch {
    /* storage unavailable: the wizard starts from step 1 */
  }
}

/**
 * The wizard's state and an updater that persists every change. Starts empty on the server and
 * for the first client render (so hydration matches), then loads what this tab stored.
 */
export function useWizardState() {
  const [state, setState] = useState<WizardState>(EMPTY);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    // A transition: the page renders again in short slices that leave a slow phone responsive,
    // instead of in one long task right after hydration (decision 009).
    startTransition(() => {
      setState(read());
      setLoaded(true);
    });
  }, []);
  const update = useCallback((patch: Partial<WizardState> | ((s: WizardState) => Partial<WizardState>)) => {
    setState((prev) => {
      const next = { ...prev, ...(typeof patch === "function" ? patch(prev) : patch) };
      try {
        sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify(next));
      } catch {
        /* storage full or unavailable: the state still lives in memory */
      }
      return next;
    });
  }, []);
  return { state, update, loaded };
}
