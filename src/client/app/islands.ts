// Type-only: the contract's path, checked by the compiler; no zod on a content page.
import type { getSavedDraftContract } from "../../shared/api/apply";
import { isLanguage } from "../../shared/i18n/languages";
import { wirePublicFrame } from "../features/public-site/layout/frame";
import { rememberLanguage } from "../lib/language-choice";
import { DRAFT_DISMISSED_KEY, WIZARD_STORAGE_KEY } from "../lib/wizard-storage";

/**
 * The script of a public content page (decision 042): the server sent the page whole, so all it
 * does is make the frame's few interactive parts work (menu, language select, cookie notice, back
 * to top: `wirePublicFrame`) and store the page's language as the visitor's choice
 * (docs/product/languages.md#language-on-load). A few kilobytes, no framework: on a slow phone
 * the page is ready as soon as it is drawn (docs/product/portals.md#public-site).
 *
 * This script needs nothing else from the page: a content page carries no application state. A
 * visit that brings a partner's code (`?ref=CODE`, docs/product/codes-and-partners.md#referral-link)
 * is answered by the server with the application's own page (index.html, with the state), so this
 * script does not run on it.
 *
 * The application takes over this very page:
 * - at once should a page with `?ref=CODE` still come here (say, from a cache in front of the
 *   server that leaves the query out of its key): without the state, the application renders the
 *   page anew and loads its texts, and keeps the code in memory while the visitor moves on to apply;
 * - on /apply and the public forms' pages (`data-start="when-used"` on the page, which carries
 *   the state the application hydrates from), when the visitor starts using it: the first touch,
 *   key, focus or scroll. The wizard's page (`data-wizard`) starts at once when the address carries
 *   a choice (`?school=…`), this tab already has an application under way, or a draft saved on
 *   this device waits to be offered (decision 038: `GET /api/resume/draft`, the request the wizard
 *   makes anyway). The application's files and the page's own are fetched ahead at idle priority
 *   once the page has loaded (`fetchApplicationAhead`; the server lists them per page), so starting
 *   costs only running them.
 */
// Storage and cookies are round trips to the browser: when it is idle, not while the page starts.
const language = document.documentElement.lang;
const remember = () => isLanguage(language) && rememberLanguage(language);
if (typeof requestIdleCallback === "function") requestIdleCallback(remember, { timeout: 2000 });
else setTimeout(remember, 0);
const unwire = wirePublicFrame(document, { languageSelects: true });

/**
 * Hands the page to the application (app/start.tsx), once. A content page carries only its own
 * styles (islands.css); before the application runs on one, and can take the visitor to its other
 * pages, it gets the application's stylesheet. /apply (`data-start="when-used"`) already has it.
 */
let started = false;
function startApplication() {
  if (started) return;
  started = true;
  unwire();
  const styles = document.documentElement.dataset.start === "when-used" ? undefined : import("./styles.css");
  void Promise.resolve(styles)
    .then(() => import("./start"))
    .then(({ start }) => start());
}

/**
 * Keeps the visitor's taps on a form that is not working yet: a page that runs as islands until
 * used shows its forms disabled until the application has taken them over (HydratedFieldset). The
 * text field tapped last meanwhile, by the tap that starts the application or by one while it
 * loads, gets the focus once the form is enabled, so the visitor types where they tapped instead of
 * tapping again. Nothing when the focus has gone somewhere meanwhile; done at the first form
 * enabled.
 */
function keepTapsOnDisabledForms() {
  let tapped: HTMLInputElement | HTMLTextAreaElement | null = null;
  const onTap = (event: Event) => {
    const target = event.target;
    const field =
      target instanceof HTMLTextAreaElement ||
      (target instanceof HTMLInputElement &&
        !/^(checkbox|radio|button|submit|reset|file|hidden|image|range|color)$/.test(target.type))
        ? target
        : null;
    if (field?.closest("fieldset[disabled]")) tapped = field;
  };
  window.addEventListener("pointerdown", onTap, { capture: true, passive: true });
  const observer = new MutationObserver((records) => {
    if (!records.some((record) => record.target instanceof HTMLFieldSetElement && !record.target.disabled))
      return;
    observer.disconnect();
    window.removeEventListener("pointerdown", onTap, true);
    const focused = document.activeElement;
    if (tapped?.isConnected && !tapped.disabled && (!focused || focused === document.body))
      tapped.focus({ preventScroll: true });
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["disabled"], subtree: true });
}

/** The first sign that the visitor is using the page. */
const USE_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin", "wheel", "scroll"] as const;

/** True when this tab has an application under way (the wizard's state in sessionStorage). */
function wizardUnderWay(): boolean {
  try {
    return sessionStorage.getItem(WIZARD_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * True when the server holds a draft saved on this device that this tab has not declined (the
 * capability cookie is httpOnly, so only the server can tell). False on any failure: the wizard
 * then asks again once started.
 */
async function savedDraftWaiting(): Promise<boolean> {
  try {
    if (sessionStorage.getItem(DRAFT_DISMISSED_KEY) === "1") return false;
  } catch {
    // No storage: ask the server.
  }
  const path: (typeof getSavedDraftContract)["path"] = "/api/resume/draft";
  try {
    const response = await fetch(path, {
      credentials: "same-origin",
      headers: { accept: "application/json" },
    });
    if (!response.ok) return false;
    const answer: unknown = await response.json();
    return typeof answer === "object" && answer !== null && "draft" in answer && answer.draft != null;
  } catch {
    return false;
  }
}

/**
 * Fetches the application's files ahead, without running them: the `<link rel="prefetch">` the server
 * put, inert, in the page's `<template data-app-files>` (pages renderer) go into the head once the
 * page has loaded and the browser is idle, so they do not compete with the page's own start on a
 * slow phone. A page without the template (a content page) fetches nothing, nor does a page whose
 * application has started by then.
 */
function fetchApplicationAhead() {
  const template = document.querySelector<HTMLTemplateElement>("template[data-app-files]");
  if (!template) return;
  // Once the application has started, its own imports have fetched these files.
  const fetchAhead = () => started || document.head.append(template.content.cloneNode(true));
  const whenIdle = () =>
    typeof requestIdleCallback === "function"
      ? requestIdleCallback(fetchAhead, { timeout: 2000 })
      : setTimeout(fetchAhead, 0);
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}

if (/[?&]ref=/.test(window.location.search)) startApplication();
else if (document.documentElement.dataset.start === "when-used") {
  // The wizard's page (ApplyPage marks it) goes on at once with a choice in the address or an
  // application under way, and offers a draft saved on this device; a form's page only when used.
  const wizard = document.querySelector("[data-wizard]") !== null;
  if (wizard && (window.location.search || wizardUnderWay())) startApplication();
  else {
    const onUse = (event?: Event) => {
      for (const name of USE_EVENTS) window.removeEventListener(name, onUse, true);
      // The wizard's later steps load at the visitor's first use (ApplyPage); this was it.
      if (event) document.documentElement.dataset.used = "";
      startApplication();
    };
    keepTapsOnDisabledForms();
    for (const name of USE_EVENTS) window.addEventListener(name, onUse, { capture: true, passive: true });
    fetchApplicationAhead();
    if (wizard) void savedDraftWaiting().then((waiting) => waiting && onUse());
  }
}
