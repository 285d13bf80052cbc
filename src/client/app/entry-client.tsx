import "./styles.css";

/**
 * The page's script. The server sent the page fully rendered (decisions.md §5), so nothing here
 * is needed for the first paint: the application (React, the router, the page's module) is loaded
 * only after the browser has drawn the page once, and then hydrates it (start.tsx). On a slow
 * phone the text shows as soon as the HTML has arrived instead of waiting for 100 KB of scripts
 * (decision 009). A page opened in a background tab, which draws nothing, loads at once.
 */
const load = () => void import("./start").then(({ start }) => start());
if (document.visibilityState === "hidden") load();
else requestAnimationFrame(() => setTimeout(load, 0));
