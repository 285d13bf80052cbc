import { isNull, sql } from "drizzle-orm";
import { todayIso } from "../../../shared/age";
import {
  type AddOnOptionDto,
  type CatalogueSummaryDto,
  canApply,
  cohortStatus,
  type EarlyDiscountDto,
  type HousingOptionDto,
  lengthInDays,
  type PackageDto,
  type SchoolOptionsDto,
  type SummerSchoolDto,
} from "../../../shared/catalogue";
import type { Language } from "../../../shared/i18n/languages";
import { insuranceOfferOf } from "../../../shared/insurance";
import { depositPercentOn, ruleInEffect } from "../../../shared/pricing";
import { schoolDayClock } from "../../../shared/time";
import type { Db } from "../../db/client";
import {
  addOnOptions,
  applications,
  cohortGuides,
  housingOptions,
  packages,
  pricingRules,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import { type ChangeFeed, localChangeFeed } from "../../lib/change-feed";
import { localize } from "../../lib/localize";
import { takesPlaceSql } from "../balances";
import { openOfferSql } from "../waiting-list";

type SchoolRow = typeof summerSchools.$inferSelect;
type PackageRow = typeof packages.$inferSelect;
type HousingRow = typeof housingOptions.$inferSelect;
type AddOnRow = typeof addOnOptions.$inferSelect;
type RuleRow = typeof pricingRules.$inferSelect;

export interface CatalogueSnapshot {
  schools: SchoolRow[];
  packages: PackageRow[];
  housing: HousingRow[];
  addOns: AddOnRow[];
  /** Places taken per school: paid (or deposit-paid) applications and open waiting-list offers. */
  paidPlaces: Map<string, number>;
  /** Automatic pricing rules (decision 030), active or not. */
  rules: RuleRow[];
  /** The add-on that sells the school's insurance, per school (its cohort guide), when there is one. */
  insuranceAddOnOf: Map<string, string>;
}

/** The early application discount of school `schoolId` in effect on `today` (The Hague), or null. */
function earlyDiscountOf(rules: RuleRow[], schoolId: string, today: string): EarlyDiscountDto | null {
  const rule = rules.find((r) => r.summerSchoolId === schoolId && r.kind === "early_application");
  return rule && ruleInEffect(rule, today) ? { percent: rule.percent, endsOn: rule.endsOn } : null;
}

/**
 * The catalogue (summer schools, packages, housing options, add-ons and paid places per school),
 * read from the database once and held in memory until `invalidate()` (docs/product/catalogue-and-pricing.md#catalogue-cache), so the
 * public catalogue calls cost no query on the hot path. `version` changes with every invalidation
 * and is part of the public pages' content version. Other server processes on the same database
 * are told of each invalidation through the change feed (decision 011).
 */
export class CatalogueService {
  private snapshot: Promise<CatalogueSnapshot> | null = null;
  version = 1;

  constructor(
    private readonly db: Db,
    private readonly today: () => string = () => todayIso(),
    private readonly feed: ChangeFeed = localChangeFeed(),
    private readonly now: () => Date = () => new Date(),
    /** The school's calendar date (The Hague), for automatic discounts (decision 030). */
    private readonly schoolToday: () => string = schoolDayClock(now),
  ) {}

  /**
   * Drops the cached catalogue and tells the other server processes to drop theirs (decision 011);
   * call after any change to catalogue rows or to paid places, once the change is committed.
   */
  invalidate() {
    this.refresh();
    this.feed.publish("catalogue");
    for (const listener of this.listeners) listener();
  }

  private readonly listeners: Array<() => void> = [];

  /**
   * Calls `listener` after each `invalidate()` of this process: paid places, capacity or cohorts
   * changed (the waiting list then offers places that freed up, docs/product/admissions.md#waiting-list).
   */
  onInvalidate(listener: () => void) {
    this.listeners.push(listener);
  }

  /**
   * What the public answers depend on besides the language: the catalogue's version and the day
   * (a cohort's status and an early discount change at midnight). Answers made for one key may be
   * reused while it stays the same.
   */
  contentKey(): string {
    return `${this.version}|${this.today()}|${this.schoolToday()}`;
  }

  /** Drops the cached catalogue of this process only (another process changed it). */
  refresh() {
    this.snapshot = null;
    this.version += 1;
  }

  /** The cached snapshot (loaded on first use). */
  load(): Promise<CatalogueSnapshot> {
    if (!this.snapshot) {
      this.snapshot = this.read().catch((err) => {
        this.snapshot = null;
        throw err;
      });
    }
    return this.snapshot;
  }

  private async read(): Promise<CatalogueSnapshot> {
    const [schools, pkgs, housing, addOns, paid, offers, rules, guides] = await Promise.all([
      this.db
        .select()
        .from(summerSchools)
        .where(isNull(summerSchools.archivedAt))
        .orderBy(summerSchools.startDate),
      this.db.select().from(packages).where(isNull(packages.archivedAt)).orderBy(packages.sortOrder),
      this.db
        .select()
        .from(housingOptions)
        .where(isNull(housingOptions.archivedAt))
        .orderBy(housingOptions.sortOrder),
      this.db
        .select()
        .from(addOnOptions)
        .where(isNull(addOnOptions.archivedAt))
        .orderBy(addOnOptions.sortOrder),
      this.db
        .select({ schoolId: applications.summerSchoolId, count: sql<number>`count(*)::int` })
        .from(applications)
        // A deposit-paid application holds its place too (docs/product/payments.md#deposit-and-balance; balances/rule.ts).
        .where(takesPlaceSql)
        .groupBy(applications.summerSchoolId),
      // An open waiting-list offer holds its place (docs/product/admissions.md#waiting-list, decision 027): the cohort stays
      // "Full" for everyone else while the person offered decides.
      this.db
        .select({ schoolId: waitingListEntries.summerSchoolId, count: sql<number>`count(*)::int` })
        .from(waitingListEntries)
        .where(openOfferSql(this.now()))
        .groupBy(waitingListEntries.summerSchoolId),
      this.db.select().from(pricingRules),
      this.db
        .select({ schoolId: cohortGuides.summerSchoolId, addOnId: cohortGuides.insuranceAddOnId })
        .from(cohortGuides),
    ]);
    const paidPlaces = new Map(paid.map((p) => [p.schoolId, Number(p.count)]));
    for (const o of offers) paidPlaces.set(o.schoolId, (paidPlaces.get(o.schoolId) ?? 0) + Number(o.count));
    const insuranceAddOnOf = new Map(
      guides.flatMap((g) => (g.addOnId ? [[g.schoolId, g.addOnId] as [string, string]] : [])),
    );
    return { schools, packages: pkgs, housing, addOns, paidPlaces, rules, insuranceAddOnOf };
  }

  /** Upcoming schools (not started) with their live status, earliest first. */
  async listSchools(language: Language): Promise<SummerSchoolDto[]> {
    const snap = await this.load();
    const today = this.today();
    const schoolToday = this.schoolToday();
    const out: SummerSchoolDto[] = [];
    for (const s of snap.schools) {
      const paid = snap.paidPlaces.get(s.id) ?? 0;
      const status = cohortStatus(s, paid, today);
      if (!status) continue;
      const prices = snap.packages.filter((p) => p.summerSchoolId === s.id).map((p) => p.priceCents);
      out.push({
        id: s.id,
        name: localize(s.name, language),
        description: localize(s.description, language),
        location: s.location,
        startDate: s.startDate,
        endDate: s.endDate,
        applicationOpensAt: s.applicationOpensAt,
        applicationDeadline: s.applicationDeadline,
        lengthDays: lengthInDays(s.startDate, s.endDate),
        capacity: s.capacity,
        placesLeft: Math.max(0, s.capacity - paid),
        depositPercent: depositPercentOn(s.depositPercent, s.startDate, schoolToday),
        status,
        fromPrice: prices.length ? Math.min(...prices) : null,
        earlyDiscount: earlyDiscountOf(snap.rules, s.id, schoolToday),
      });
    }
    return out;
  }

  /** Summary for the public pages: schools, the lowest open price and the usual length. */
  async summary(language: Language): Promise<CatalogueSummaryDto> {
    const schools = await this.listSchools(language);
    const openPrices = schools
      .filter((s) => canApply(s.status) && s.fromPrice !== null)
      .map((s) => s.fromPrice!);
    const lengths = new Map<number, number>();
    for (const s of schools) lengths.set(s.lengthDays, (lengths.get(s.lengthDays) ?? 0) + 1);
    const lengthDays = [...lengths.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    // The landing page promises the early discount only when every school open for applications
    // gives the same one (no page promises what the checkout does not apply).
    const open = schools.filter((s) => canApply(s.status));
    const first = open[0]?.earlyDiscount ?? null;
    const earlyDiscount =
      first &&
      open.every(
        (s) => s.earlyDiscount?.percent === first.percent && s.earlyDiscount?.endsOn === first.endsOn,
      )
        ? first
        : null;
    // What the pages say of insurance (docs/product/admissions.md#insurance-proof): the school's insurance add-on of each
    // open school, required or optional, or none.
    const snap = await this.load();
    const insurance = insuranceOfferOf(
      open.map((s) => {
        const addOn = snap.addOns.find(
          (a) => a.id === snap.insuranceAddOnOf.get(s.id) && a.summerSchoolId === s.id,
        );
        return addOn ? { priceCents: addOn.priceCents, required: addOn.isRequired } : null;
      }),
    );
    return {
      schools,
      fromPrice: openPrices.length ? Math.min(...openPrices) : null,
      lengthDays,
      earlyDiscount,
      insurance,
    };
  }

  async school(id: string): Promise<SchoolRow | undefined> {
    return (await this.load()).schools.find((s) => s.id === id);
  }

  /** Packages of a school, with the names of the add-ons they include. */
  async packagesOf(schoolId: string, language: Language): Promise<PackageDto[]> {
    const snap = await this.load();
    return snap.packages
      .filter((p) => p.summerSchoolId === schoolId)
      .map((p) => this.packageDto(p, snap, language));
  }

  async package(id: string, language: Language): Promise<PackageDto | undefined> {
    const snap = await this.load();
    const p = snap.packages.find((row) => row.id === id);
    return p ? this.packageDto(p, snap, language) : undefined;
  }

  private packageDto(p: PackageRow, snap: CatalogueSnapshot, language: Language): PackageDto {
    return {
      id: p.id,
      summerSchoolId: p.summerSchoolId,
      name: localize(p.name, language),
      description: localize(p.description, language),
      price: p.priceCents,
      includes: p.includes.map((text) => localize(text, language)),
      includedAddOns: p.includedAddOnIds,
      includedAddOnNames: p.includedAddOnIds.map((id) =>
        localize(snap.addOns.find((a) => a.id === id)?.name, language),
      ),
      urgencyText: p.urgencyText ? localize(p.urgencyText, language) : null,
      urgencyColor: p.urgencyColor ?? null,
    };
  }

  async housingOf(schoolId: string, language: Language): Promise<HousingOptionDto[]> {
    const snap = await this.load();
    return snap.housing
      .filter((h) => h.summerSchoolId === schoolId)
      .map((h) => ({
        id: h.id,
        name: localize(h.name, language),
        description: localize(h.description, language),
        priceAdjustment: h.priceAdjustmentCents,
      }));
  }

  async addOnsOf(schoolId: string, language: Language): Promise<AddOnOptionDto[]> {
    const snap = await this.load();
    return snap.addOns.filter((a) => a.summerSchoolId === schoolId).map((a) => this.addOnDto(a, language));
  }

  /**
   * Packages, housing options and add-ons of one school, as step 1 of the application shows them
   * (the three GET /api/summer-schools/:id/… answers in one), for the prerendered /apply page.
   */
  async optionsOf(schoolId: string, language: Language): Promise<SchoolOptionsDto> {
    return {
      schoolId,
      packages: await this.packagesOf(schoolId, language),
      housing: await this.housingOf(schoolId, language),
      addOns: await this.addOnsOf(schoolId, language),
    };
  }

  async addOn(id: string, language: Language): Promise<AddOnOptionDto | undefined> {
    const a = (await this.load()).addOns.find((row) => row.id === id);
    return a ? this.addOnDto(a, language) : undefined;
  }

  private addOnDto(a: AddOnRow, language: Language): AddOnOptionDto {
    return {
      id: a.id,
      name: localize(a.name, language),
      description: localize(a.description, language),
      price: a.priceCents,
      isRequired: a.isRequired,
    };
  }
}
