import { useQuery } from "@tanstack/react-query";
import { Lock } from "lucide-react";
import { Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import type { getSavedDraftContract } from "../../../shared/api/apply";
import { Container } from "../../components/ui/Layout";
import { LoadBoundary, retryableLazy } from "../../components/ui/LoadBoundary";
import { Spinner } from "../../components/ui/Spinner";
import { api } from "../../lib/api";
import { useLanguage } from "../../lib/catalogue";
import { Progress } from "./components/Progress";
import { loadSelectionRules, ProgramStep } from "./steps/ProgramStep";
import {
  dismissDraftOffer,
  draftOfferDismissed,
  useWizardState,
  type WizardState,
  wizardStateOf,
} from "./wizard-state";

/**
 * Steps 2 to 4 and the rules of step 1 (zod, react-hook-form) are not part of the page's first
 * load: a visitor reads step 1 first, and they would double the JavaScript /apply starts with
 * (docs/product/portals.md#public-site). They load once the visitor first touches, clicks or tabs into the page, well
 * before they can reach step 2, or at once when the tab's stored state opens a later step.
 */
const loadPersonalStep = () => import("./steps/PersonalStep");
const loadPaymentStep = () => import("./steps/PaymentStep");
const loadConfirmationStep = () => import("./steps/ConfirmationStep");
const PersonalStep = retryableLazy(() => loadPersonalStep().then((m) => ({ default: m.PersonalStep })));
const PaymentStep = retryableLazy(() => loadPaymentStep().then((m) => ({ default: m.PaymentStep })));
const ConfirmationStep = retryableLazy(() =>
  loadConfirmationStep().then((m) => ({ default: m.ConfirmationStep })),
);
/** Loaded only when this browser has a saved application to offer (it brings the shared schema). */
const DraftOffer = retryableLazy(() => import("./components/DraftOffer"));

/**
 * Whether this browser holds an unfinished application on the server (docs/product/admissions.md#next-steps, decision
 * 038): asked once the tab's own state is loaded, only on step 1 of a tab that holds no applicant
 * and has not answered the offer. `GET /api/resume/draft` reads the httpOnly capability cookie; the
 * answer is kept raw here (no zod on /apply's first load) and parsed by DraftOffer.
 */
function useSavedDraft(enabled: boolean) {
  // The contract's path, typed as its literal: the contract itself (zod) is imported for its type only.
  const path: (typeof getSavedDraftContract)["path"] = "/api/resume/draft";
  const language = useLanguage();
  return useQuery({
    queryKey: ["saved-draft", language],
    queryFn: ({ signal }) => api(path, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Whether the raw answer of `GET /api/resume/draft` names a draft (DraftOffer parses it whole). */
function holdsDraft(answer: unknown): boolean {
  return typeof answer === "object" && answer !== null && "draft" in answer && answer.draft != null;
}

function loadLaterSteps() {
  void Promise.all([
    loadSelectionRules(),
    loadPersonalStep(),
    loadPaymentStep(),
    loadConfirmationStep(),
  ]).catch(
    () => undefined, // loaded again, with a message on failure, when the step is opened
  );
}

/**
 * Starts loading the later steps at the visitor's first interaction with the page: at once when
 * that interaction is what started the wizard (the page's islands mark it `data-used`, decision 042).
 */
function useLaterStepsOnFirstInteraction() {
  useEffect(() => {
    if (document.documentElement.dataset.used !== undefined) {
      loadLaterSteps();
      return;
    }
    const events = ["pointerdown", "keydown", "focusin"] as const;
    const load = () => {
      for (const name of events) window.removeEventListener(name, load, true);
      loadLaterSteps();
    };
    for (const name of events) window.addEventListener(name, load, { capture: true, passive: true });
    return () => {
      for (const name of events) window.removeEventListener(name, load, true);
    };
  }, []);
}

/**
 * The application wizard (docs/product/admissions.md#application-wizard): program selection, personal
 * information, payment, confirmation. /apply/payment opens step 3 directly (checkout's cancel
 * target) when this tab has an application; otherwise the wizard starts where the state says.
 */
export default function ApplyPage() {
  const { t } = useTranslation("apply");
  const { state, update, loaded } = useWizardState();
  const location = useLocation();
  const navigate = useNavigate();
  const onPaymentPath = location.pathname === "/apply/payment";
  useLaterStepsOnFirstInteraction();
  const [offerAnswered, setOfferAnswered] = useState(false);
  const offerDraft = loaded && state.step === 1 && !state.applicantId && !offerAnswered;
  const savedDraft = useSavedDraft(offerDraft && !draftOfferDismissed());

  // Only when the address changes (or the stored state is loaded), not when the wizard moves: go()
  // changes the step and the address together, and the router renders the new address later (a
  // transition), so reacting to the step alone sent Back from the payment step straight back there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the address on purpose (above)
  useEffect(() => {
    if (!loaded) return;
    if (onPaymentPath && state.step < 3) {
      if (state.applicationId) update({ step: 3 });
      else navigate("/apply", { replace: true });
    } else if (!onPaymentPath && state.step === 3) {
      navigate("/apply/payment", { replace: true });
    }
  }, [loaded, onPaymentPath]);

  /**
   * Next is allowed below step 3, Back above step 1; both scroll to the top (docs/product/portals.md#navigation). The new
   * step's region takes the focus and tells a screen reader which step this is (docs/product/admissions.md#application-wizard: the
   * focus no longer falls back to the top of the page).
   */
  const go = (step: WizardState["step"], patch: Partial<WizardState> = {}) => {
    update({ ...patch, step });
    if (step === 3) navigate("/apply/payment");
    else if (step < 3 && onPaymentPath) navigate("/apply");
    focusStep.current = true;
    window.scrollTo({ top: 0, behavior: "smooth" });
  };
  const stepRegion = useRef<HTMLElement>(null);
  const focusStep = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step has changed
  useEffect(() => {
    if (!focusStep.current) return;
    focusStep.current = false;
    const region = stepRegion.current;
    if (!region) return;
    region.focus({ preventScroll: true });
  }, [state.step]);
  const stepLabels = [t("progress.selection"), t("progress.application"), t("progress.payment")];

  return (
    // `data-wizard`: the page's islands offer a saved draft or go on with an application under way
    // only where the wizard is (app/islands.ts).
    <div className="bg-slate-50 pb-16" data-wizard="">
      <Container className="max-w-4xl pt-10">
        {state.step < 4 ? (
          <header className="mb-8">
            <h1 className="text-3xl font-bold text-brand-900">{t("title")}</h1>
            <p className="mt-2 text-slate-700">{t("description")}</p>
            <p className="mt-3 flex items-center gap-2 text-sm text-emerald-800">
              <Lock aria-hidden="true" className="h-4 w-4 shrink-0" />
              {t("secure")}
            </p>
            {state.applicantId && state.step < 4 ? (
              <p className="mt-2 text-sm text-slate-700">
                {t("resume.continueElsewhere")}{" "}
                <Link to="/apply/resume" className="font-medium text-brand-700 underline">
                  {t("resume.getLink")}
                </Link>
              </p>
            ) : null}
          </header>
        ) : null}
        {offerDraft && holdsDraft(savedDraft.data) ? (
          // The offer is extra: when it cannot be loaded, the wizard simply starts at step 1.
          <LoadBoundary fallback={() => null}>
            <Suspense fallback={null}>
              <DraftOffer
                answer={savedDraft.data}
                onContinue={(wizard) => {
                  setOfferAnswered(true);
                  go(wizard.step, wizardStateOf(wizard));
                }}
                onStartNew={() => {
                  dismissDraftOffer();
                  setOfferAnswered(true);
                }}
              />
            </Suspense>
          </LoadBoundary>
        ) : null}
        {state.step < 4 ? <Progress step={state.step as 1 | 2 | 3} /> : null}
        <section
          ref={stepRegion}
          tabIndex={-1}
          aria-label={
            state.step < 4
              ? t("progress.stepOf", { number: state.step, count: 3, label: stepLabels[state.step - 1] })
              : t("confirmation.title")
          }
          className="scroll-mt-4 outline-none"
        >
          {/* A step that cannot be loaded (connection or server down) says so, with "Try again";
              the wizard's state is kept above it (docs/product/portals.md#failure-states). */}
          <LoadBoundary resetKey={state.step} message={t("common:errors.network")}>
            <Suspense fallback={<Spinner />}>
              {!loaded || state.step === 1 ? (
                <ProgramStep state={state} onNext={(patch) => go(2, patch)} onChoose={update} />
              ) : state.step === 2 ? (
                <PersonalStep
                  state={state}
                  update={update}
                  onBack={() => go(1)}
                  onNext={(patch) => go(3, patch)}
                />
              ) : state.step === 3 && state.applicationId ? (
                <PaymentStep
                  applicationId={state.applicationId}
                  onBack={() => go(2)}
                  onCompleted={(paymentId) => go(4, { paymentId })}
                />
              ) : state.step === 4 && state.applicationId ? (
                <ConfirmationStep applicationId={state.applicationId} />
              ) : (
                <Spinner />
              )}
            </Suspense>
          </LoadBoundary>
        </section>
      </Container>
    </div>
  );
}
