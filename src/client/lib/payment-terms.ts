import { type PaymentTerms, paymentTermsOf, paymentTermsSuffix } from "../../shared/payment-terms";
import { useCatalogueSummary } from "./catalogue";

/**
 * The payment terms of the schools in the catalogue (src/shared/payment-terms.ts), for the public
 * pages' copy: `suffix` picks the translation key (`…Full`, `…Deposit`, `…Mixed`), `percent` the
 * deposit to show. Until the catalogue is known (it is prerendered into the page, decision 009),
 * the default of docs/product/catalogue-and-pricing.md#deposit-percent: full payment.
 */
export function usePaymentTerms(): { terms: PaymentTerms; suffix: string; percent: number } {
  const { data } = useCatalogueSummary();
  const terms = paymentTermsOf(data?.schools ?? []);
  return { terms, suffix: paymentTermsSuffix(terms), percent: terms.kind === "full" ? 100 : terms.percent };
}
