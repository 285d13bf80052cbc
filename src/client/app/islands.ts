import "./styles.css";
import { isLanguage } from "../../shared/i18n/languages";
import { wirePublicFrame } from "../features/public-site/layout/frame";
import { rememberLanguage } from "../lib/language-choice";

/**
 * The script of a public content page (decision 042): the server sent the page whole, so all it
 * does is make the frame's few interactive parts work (menu, language select, cookie notice, back
 * to top: `wirePublicFrame`) and store the page's language as the visitor's choice
 * (docs/product/languages.md#language-on-load). A few kilobytes, no framework: on a slow phone
 * the page is ready as soon as it is drawn (decisions.md §5).
 *
 * A visit that brings a partner's code (`?ref=CODE`, docs/product/codes-and-partners.md#referral-link)
 * loads the application instead, which hydrates this very page (its state is in the page) and
 * keeps the code in memory while the visitor moves on to apply, as before (decision 042).
 */
const language = document.documentElement.lang;
if (isLanguage(language)) rememberLanguage(language);
const unwire = wirePublicFrame(document, { languageSelects: true });
if (/[?&]ref=/.test(window.location.search)) {
  unwire();
  void import("./start").then(({ start }) => start());
}
