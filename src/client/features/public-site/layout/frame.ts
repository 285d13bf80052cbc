import { isLanguage } from "../../../../shared/i18n/languages";
import { readConsent, resetConsent, setConsent, subscribeConsent } from "../../../lib/consent";
import { openPageInLanguage, rememberLanguage } from "../../../lib/language-choice";

/**
 * The behaviour of the public pages' frame (header, menu, cookie notice, "back to top"), written
 * once, without React, for both ways a public page runs (decision 042):
 * - a content page loads only its islands (app/islands.ts), which call this on the document;
 * - a page of the application (the wizard, a form, a portal's public page) renders the same markup
 *   with React (PublicLayout) and calls this from an effect.
 * The markup names its parts with data attributes:
 * - `[data-site-header]`: gets `data-compact` once the page has scrolled 20 px
 *   (docs/product/portals.md#navigation);
 * - `[data-menu-open]` opens `dialog[data-menu]` as a modal dialog (focus kept inside, Escape
 *   closes, the page behind does not scroll: styles.css), `[data-menu-close]` and a link in it
 *   close it, and focus goes back to the menu button;
 * - `[data-cookie-notice]` is shown while no cookie choice is stored, its `[data-consent=all|necessary]`
 *   buttons store one, and `[data-reset-consent]` withdraws it (docs/product/privacy.md#cookie-consent);
 * - `[data-scroll-top]` is shown after one screen of scrolling and scrolls back to the top;
 * - with `languageSelects`, a `select[data-language-select]` opens the page in the chosen language
 *   (decision 029); the application's own select does this through its router instead.
 * Returns the function that removes every listener (before the application takes over a page).
 */
export function wirePublicFrame(root: ParentNode, options: { languageSelects: boolean }): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const header = root.querySelector<HTMLElement>("[data-site-header]");
  const toTop = root.querySelector<HTMLElement>("[data-scroll-top]");

  // One scroll listener, at most one update a frame; the first reading waits for the next frame so
  // that the page's start-up does not force a layout (total blocking time).
  let frame = 0;
  const onScroll = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      header?.toggleAttribute("data-compact", window.scrollY > 20);
      if (toTop) toTop.hidden = window.scrollY <= window.innerHeight;
    });
  };
  onScroll();
  window.addEventListener("scroll", onScroll, { passive: true, signal });
  toTop?.addEventListener("click", () => window.scrollTo({ top: 0, behavior: "smooth" }), { signal });

  const menuButton = root.querySelector<HTMLElement>("[data-menu-open]");
  const menu = root.querySelector<HTMLDialogElement>("dialog[data-menu]");
  if (menuButton && menu) {
    menuButton.addEventListener(
      "click",
      () => {
        if (menu.open) return;
        menu.showModal();
        menuButton.setAttribute("aria-expanded", "true");
      },
      { signal },
    );
    menu.addEventListener(
      "close",
      () => {
        menuButton.setAttribute("aria-expanded", "false");
        menuButton.focus();
      },
      { signal },
    );
    menu.addEventListener(
      "click",
      (event) => {
        const target = event.target as Element | null;
        if (target?.closest("[data-menu-close], a")) menu.close();
      },
      { signal },
    );
    // A page restored from the back-forward cache after a link of the menu was followed.
    window.addEventListener("pageshow", () => menu.open && menu.close(), { signal });
  }

  const notice = root.querySelector<HTMLElement>("[data-cookie-notice]");
  const showNotice = () => {
    if (notice) notice.hidden = readConsent() !== "unknown";
  };
  // Reading the cookies is a round trip to the browser's cookie store: a task of its own, after the
  // listeners are in place, not part of the script's first run.
  const firstCheck = setTimeout(showNotice, 0);
  const unsubscribe = subscribeConsent(showNotice);
  signal.addEventListener("abort", () => {
    clearTimeout(firstCheck);
    unsubscribe();
  });
  for (const button of root.querySelectorAll<HTMLElement>("[data-consent]"))
    button.addEventListener(
      "click",
      () => setConsent(button.dataset.consent === "all" ? "all" : "necessary"),
      { signal },
    );
  for (const button of root.querySelectorAll<HTMLElement>("[data-reset-consent]"))
    button.addEventListener("click", resetConsent, { signal });

  if (options.languageSelects) {
    const selects = root.querySelectorAll<HTMLSelectElement>("select[data-language-select]");
    for (const select of selects)
      select.addEventListener(
        "change",
        () => {
          if (!isLanguage(select.value)) return;
          // The visitor's choice is kept as they make it, not once the next page is idle.
          rememberLanguage(select.value);
          openPageInLanguage(select.value);
        },
        { signal },
      );
    // Back from the other language's page (back-forward cache): the select shows this page's language.
    window.addEventListener(
      "pageshow",
      () => {
        for (const select of selects) select.value = document.documentElement.lang;
      },
      { signal },
    );
  }

  return () => {
    cancelAnimationFrame(frame);
    controller.abort();
  };
}

/** Closes the menu of a public page's frame, if open (after a navigation within the application). */
export function closeMenu(root: ParentNode): void {
  const menu = root.querySelector<HTMLDialogElement>("dialog[data-menu]");
  if (menu?.open) menu.close();
}
