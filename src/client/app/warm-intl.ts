/**
 * A worker that builds one money, date and plural formatter for the page's locale, then ends.
 * The first Intl formatter of a page costs 20–80 ms: the browser loads its locale data (ICU), once
 * per process. Loaded here, on another thread, while the application downloads, that cost is no
 * longer paid on the main thread during hydration, where a slow phone would feel it (decision 010).
 * Message in: a locale such as "fr-FR". No message out.
 */
import { CURRENCY } from "../../shared/money";

const scope = self as unknown as { onmessage: ((event: MessageEvent<string>) => void) | null; close(): void };

scope.onmessage = (event) => {
  const locale = event.data;
  new Intl.NumberFormat(locale, { style: "currency", currency: CURRENCY }).format(0);
  new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(0);
  new Intl.PluralRules(locale).select(0);
  scope.close();
};
