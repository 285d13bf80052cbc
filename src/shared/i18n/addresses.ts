import { isLanguage, type Language } from "./languages";

/**
 * Per-language addresses (docs/product/languages.md#language-in-the-address): every page lives at `/en/...`,
 * `/zh/...` and `/fr/...`, and the address decides the language, so a shared link opens in the
 * sender's language. Unprefixed addresses are the `x-default`: the server answers them with a 302 to
 * the visitor's language (stored choice, else browser, else English). Decision 029.
 */

/**
 * Splits a path into its language and the page's own path.
 * `/zh/program` → `{ language: "zh", rest: "/program" }`; `/fr` and `/fr/` → rest `/`;
 * `/program` or `/zh-CN/x` → null (no language prefix).
 */
export function splitLanguagePath(pathname: string): { language: Language; rest: string } | null {
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (!match || !isLanguage(match[1])) return null;
  const rest = match[2] || "/";
  return { language: match[1], rest: rest === "" ? "/" : rest };
}

/**
 * The address of a page in a language: `localizedPath("zh", "/program")` → `/zh/program`,
 * `localizedPath("fr", "/")` → `/fr` (the home page). A query or hash in `path` is kept.
 */
export function localizedPath(language: Language, path: string): string {
  const rest = path.startsWith("/") ? path : `/${path}`;
  if (rest === "/" || rest.startsWith("/?") || rest.startsWith("/#")) return `/${language}${rest.slice(1)}`;
  return `/${language}${rest}`;
}

/**
 * The absolute address of a page in a language, for e-mails and documents: the page opens in the
 * e-mail's language whatever the reader's browser says (docs/product/languages.md#supported-languages).
 * `pageUrl("https://x.nl", "zh", "/student/payment")` → `https://x.nl/zh/student/payment`.
 */
export const pageUrl = (origin: string, language: Language, path: string) =>
  `${origin}${localizedPath(language, path)}`;
