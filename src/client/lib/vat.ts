import type { VatSetting } from "../../shared/site";
import { useSite } from "./site";

/**
 * The i18next `context` of the texts that state VAT (docs/product/payments.md#vat-setting, decision 034): "exempt" under
 * `INVOICE_VAT=exempt`, which picks each such text's `_exempt` variant; undefined when VAT is
 * included. Kept out of the pages' shell: only the pages that state VAT load it.
 */
export const vatContext = (vat: VatSetting): "exempt" | undefined =>
  vat.mode === "exempt" ? "exempt" : undefined;

/** `vatContext` of the site's setting, for `t(key, { context })`. */
export function useVatContext(): "exempt" | undefined {
  return vatContext(useSite().vat);
}
