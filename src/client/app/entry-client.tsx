import "./styles.css";
import { isLanguage, LOCALE_OF } from "../../shared/i18n/languages";

/**
 * The page's script. The server sent the page fully rendered (docs/product/portals.md#public-site), so nothing here
 * is needed for the first paint: the application (React, the router, the page's module) is loaded
 * only after the browser has drawn the page once, and then hydrates it (start.tsx). On a slow
 * phone the text shows as soon as the HTML has arrived instead of waiting for 100 KB of scripts
 * (decision 009). A page opened in a background tab, which draws nothing, loads at once.
 */
const load = () => {
  void import("./start").then(({ start }) => start());
  // Starting a worker takes some 10 ms: a task of its own, after the downloads have been asked for.
  setTimeout(prepareFormats, 0);
};

/**
 * Has a worker load the locale data of the page's language while the application downloads, so
 * that the money and date formatters of the hydration cost nothing on this thread (warm-intl.ts,
 * decision 010). Where workers are unavailable the formatters simply load on first use.
 */
function prepareFormats() {
  const language = document.documentElement.lang;
  if (!isLanguage(language) || typeof Worker === "undefined") return;
  try {
    new Worker(new URL("./warm-intl.ts", import.meta.url)).postMessage(LOCALE_OF[language]);
  } catch {
    // A browser that refuses the worker loads the locale data on first use instead.
  }
}

if (document.visibilityState === "hidden") load();
else requestAnimationFrame(() => setTimeout(load, 0));
