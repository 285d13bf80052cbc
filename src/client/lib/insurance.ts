import { useTranslation } from "react-i18next";
import { type InsuranceOffer, UNKNOWN_INSURANCE } from "../../shared/insurance";
import { useCatalogueSummary } from "./catalogue";
import { useFormat } from "./format";

/**
 * Travel and health insurance as the cohorts open for applications sell it (src/shared/insurance.ts,
 * docs/product/admissions.md#insurance-proof), for the public pages' copy: `kind` picks a text's variant (`…_required`,
 * `…_optional`, `…_own`, `…_varies`), `price` is the add-on's price written in the page's language
 * (empty without one) and `sentence` the common sentence that says what the student does
 * (`common:insuranceOffer.<kind>`). Until the catalogue is known: "varies", which is true of any.
 */
export function useInsuranceOffer(): {
  offer: InsuranceOffer;
  kind: InsuranceOffer["kind"];
  price: string;
  sentence: string;
} {
  const { t } = useTranslation("common");
  const { money } = useFormat();
  const { data } = useCatalogueSummary();
  const offer = data?.insurance ?? UNKNOWN_INSURANCE;
  const price = "priceCents" in offer ? money(offer.priceCents) : "";
  return { offer, kind: offer.kind, price, sentence: t(`insuranceOffer.${offer.kind}`, { price }) };
}
