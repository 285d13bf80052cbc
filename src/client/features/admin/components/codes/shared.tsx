import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { AdminAffiliateDto } from "../../../../../shared/affiliates-admin";
import { listAffiliatesContract } from "../../../../../shared/api/partners-admin";
import type { AdminCodeDto } from "../../../../../shared/codes-admin";
import type { AffiliateStatus } from "../../../../../shared/schemas/affiliates-admin";
import { cn } from "../../../../components/ui/cn";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { HeaderCell } from "../AdminListFrame";

/** Query keys of the codes and affiliates screens (under ["admin"], dropped at logout). */
export const codeKeys = {
  codes: () => ["admin", "codes"] as const,
  list: (search: string) => ["admin", "codes", "list", search] as const,
  detail: (id: string) => ["admin", "codes", "detail", id] as const,
  affiliates: () => ["admin", "affiliates"] as const,
  affiliateList: (search: string) => ["admin", "affiliates", "list", search] as const,
  affiliate: (id: string) => ["admin", "affiliates", "detail", id] as const,
  affiliateOptions: () => ["admin", "affiliates", "options"] as const,
};

/** A plain column header (the shared one of the admin lists). */
export const Th = HeaderCell;

const pill =
  "inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset";

/** Active / inactive / expired / not yet valid, as a coloured pill whose text carries the meaning. */
export function CodeStateBadge({ code }: { code: AdminCodeDto }) {
  const { t } = useTranslation("adminCodes");
  const notYet = code.validFrom !== null && new Date(code.validFrom) > new Date();
  const [label, colours] = !code.active
    ? [t("codes.state.inactive"), "bg-slate-100 text-slate-800 ring-slate-300"]
    : code.expired
      ? [t("codes.state.expired"), "bg-amber-100 text-amber-900 ring-amber-300"]
      : notYet
        ? [t("codes.state.scheduled"), "bg-sky-100 text-sky-900 ring-sky-300"]
        : [t("codes.state.active"), "bg-emerald-100 text-emerald-900 ring-emerald-300"];
  return <span className={cn(pill, colours)}>{label}</span>;
}

const AFFILIATE_COLOURS: Record<AffiliateStatus, string> = {
  pending: "bg-amber-100 text-amber-900 ring-amber-300",
  approved: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  rejected: "bg-slate-100 text-slate-800 ring-slate-300",
  suspended: "bg-red-100 text-red-900 ring-red-300",
};

/** An affiliate's status as a coloured pill. */
export function AffiliateStatusBadge({ status }: { status: AffiliateStatus }) {
  const { t } = useTranslation("adminCodes");
  return <span className={cn(pill, AFFILIATE_COLOURS[status])}>{t(`affiliates.status.${status}`)}</span>;
}

/** "15 %", "125.00 EUR" or "Referral" for a code, in the UI language. */
export function useDiscountLabel() {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  return (code: Pick<AdminCodeDto, "codeType" | "discountType" | "discountValue">) =>
    code.codeType === "referral"
      ? t("codes.type.referral")
      : code.discountType === "fixed"
        ? format.money(code.discountValue)
        : t("codes.percent", { value: code.discountValue });
}

/** An affiliate's rate: "10 % commission" or "150.00 EUR per enrolled student" (docs/product/codes-and-partners.md#commissions rate types). */
export function useRateLabel() {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  return (a: Pick<AdminAffiliateDto, "commissionType" | "commissionPercent" | "commissionFixedCents">) =>
    a.commissionType === "fixed"
      ? t("affiliates.rateFixed", { amount: format.money(a.commissionFixedCents) })
      : t("affiliates.rate", { percent: a.commissionPercent });
}

/** Uses against the maximum: "3 / 20" or "3 (no limit)". */
export function useUsesLabel() {
  const { t } = useTranslation("adminCodes");
  return (code: Pick<AdminCodeDto, "uses" | "maxRedemptions">) =>
    code.maxRedemptions === null
      ? t("codes.usesUnlimited", { uses: code.uses })
      : t("codes.usesOf", { uses: code.uses, max: code.maxRedemptions });
}

/**
 * The affiliates a code can be linked to (the first 100 by name, every status), for the code
 * form's select and the list's filter.
 */
export function useAffiliateOptions() {
  return useQuery({
    queryKey: codeKeys.affiliateOptions(),
    queryFn: ({ signal }) =>
      call(listAffiliatesContract, { query: { pageSize: "100", sort: "name:asc" }, signal }),
    staleTime: 60_000,
  });
}

/** A label and value pair of a description list. */
export function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}
