import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { commissionForPayment } from "../../shared/commissions";
import { includedVat } from "../../shared/pricing";
import { hashToken, newToken } from "../lib/tokens";
import { releaseAt } from "../modules/commissions/ledger";
import type { Db } from "./client";
import {
  addOnOptions,
  affiliates,
  applicants,
  applications,
  codeClicks,
  codeRedemptions,
  codes,
  cohortGuides,
  commissionEntries,
  housingOptions,
  type LocalizedText,
  packages,
  payments,
  pricingRules,
  summerSchools,
} from "./schema";
import {
  DEMO_ARRIVAL_ADDRESS,
  DEMO_ARRIVAL_INFO,
  DEMO_HOUSING_ADDRESS,
  DEMO_PROGRAMME,
  DEMO_WHAT_TO_BRING,
} from "./seed-programme";

/**
 * The first summer that has not started yet, seen from `today` (yyyy-mm-dd): this year's when
 * today is before 15 June, else next year's (docs/product/catalogue-and-pricing.md#cohort-status).
 */
export function demoSummerYear(today: string): number {
  const year = Number(today.slice(0, 4));
  return today < `${year}-06-15` ? year : year + 1;
}

const L = (en: string, zh: string, fr: string): LocalizedText => ({ en, zh, fr });

/**
 * Seeds the demo catalogue of the README once: five cohorts (one full, one with few places left,
 * one with a 30 % deposit, one not yet open), packages, housing options, add-ons, a demo affiliate and the demo codes.
 * Does nothing when a summer school already exists, so restarts never seed twice.
 * @returns true when it seeded.
 */
export async function seedDemoCatalogue(
  db: Db,
  today: string,
  /**
   * `earlyDiscount` (default true): every cohort gets the early application discount of docs/product/catalogue-and-pricing.md#pricing-rules,
   * 10 % for applications before 15 March of the demo's summer (decision 030). The API tests seed
   * without it and add the rules they test.
   */
  options: { earlyDiscount?: boolean } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // One seeder at a time, even with several processes starting at once.
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`);
    const existing = await tx.select({ id: summerSchools.id }).from(summerSchools).limit(1);
    if (existing.length > 0) return false;

    const y = demoSummerYear(today);
    const cohorts = [
      {
        slug: `june-${y}`,
        month: L(`June ${y}`, `${y}年6月`, `Juin ${y}`),
        start: `${y}-06-15`,
        end: `${y}-06-28`,
        paid: 50,
      },
      {
        slug: `july-${y}`,
        month: L(`July ${y}`, `${y}年7月`, `Juillet ${y}`),
        start: `${y}-07-20`,
        end: `${y}-08-02`,
        paid: 46,
      },
      {
        slug: `august-${y}`,
        month: L(`August ${y}`, `${y}年8月`, `Août ${y}`),
        start: `${y}-08-17`,
        end: `${y}-08-30`,
        paid: 0,
      },
      {
        slug: `september-${y}`,
        month: L(`September ${y}`, `${y}年9月`, `Septembre ${y}`),
        start: `${y}-09-07`,
        end: `${y}-09-20`,
        paid: 0,
      },
      {
        slug: `october-${y}`,
        month: L(`October ${y}`, `${y}年10月`, `Octobre ${y}`),
        start: `${y}-10-04`,
        end: `${y}-10-17`,
        paid: 0,
        opensAt: `${y}-05-01`,
      },
    ];

    const [affiliate] = await tx
      .insert(affiliates)
      .values({
        name: "Linda Chen Education Consulting",
        email: "linda@partner.example",
        status: "approved",
        commissionPercent: 10,
      })
      .returning();

    let firstPaidApplicationId: string | null = null;
    /** Demo paid applications credited to the demo affiliate (docs/product/codes-and-partners.md#attribution): the first four of July. */
    const referred: Array<{ applicationId: string; total: number; start: string }> = [];
    for (const c of cohorts) {
      const nights = Math.round((Date.parse(c.end) - Date.parse(c.start)) / 86_400_000);
      const [school] = await tx
        .insert(summerSchools)
        .values({
          slug: c.slug,
          name: L(
            `International Business Summer School — ${c.month.en}`,
            `国际商务暑期学校 — ${c.month.zh}`,
            `Université d’été de commerce international — ${c.month.fr}`,
          ),
          description: L(
            "Two weeks in The Hague: global politics, cross-border business, cross-cultural communication and sustainable development, with company visits and a pitch to a jury.",
            "在海牙的两周：全球政治、跨境商务、跨文化沟通与可持续发展，并有企业参访和面向评委的路演。",
            "Deux semaines à La Haye : politique mondiale, commerce transfrontalier, communication interculturelle et développement durable, avec visites d’entreprises et un pitch devant un jury.",
          ),
          location: "The Hague, Netherlands",
          startDate: c.start,
          endDate: c.end,
          applicationOpensAt: c.opensAt ?? null,
          applicationDeadline: `${y}-${c.start.slice(5, 7) === "06" ? "04-30" : `${c.start.slice(5, 7)}-01`}`,
          capacity: 50,
          // September takes a 30 % deposit, the balance due 28 days before the start (decision 016).
          depositPercent: c.slug.startsWith("september-") ? 30 : 100,
        })
        .returning();
      if (!school) throw new Error("seed: school not inserted");
      if (options.earlyDiscount ?? true)
        await tx
          .insert(pricingRules)
          .values({ summerSchoolId: school.id, percent: 10, endsOn: `${y}-03-15` });

      const [pickup, insurance, transport] = await tx
        .insert(addOnOptions)
        .values([
          {
            summerSchoolId: school.id,
            name: L("Airport pickup", "机场接机", "Accueil à l’aéroport"),
            description: L(
              "A driver meets you at Amsterdam Schiphol arrivals and takes you to your residence.",
              "司机在阿姆斯特丹史基浦机场到达大厅接您并送至住处。",
              "Un chauffeur ou une chauffeuse vous accueille aux arrivées d’Amsterdam-Schiphol et vous conduit à votre résidence.",
            ),
            priceCents: 3000,
            sortOrder: 1,
          },
          {
            summerSchoolId: school.id,
            name: L("Travel and health insurance", "申根旅行医疗保险", "Assurance voyage et santé"),
            description: L(
              "Mandatory cover for the whole programme, accepted for the Schengen visa.",
              "覆盖整个项目期间的强制保险，可用于申根签证。",
              "Couverture obligatoire pour tout le programme, acceptée pour le visa Schengen.",
            ),
            priceCents: 9500,
            isRequired: true,
            sortOrder: 2,
          },
          {
            summerSchoolId: school.id,
            name: L("Public transport card", "公共交通卡", "Carte de transport public"),
            description: L(
              "Unlimited tram and bus travel in The Hague during the programme.",
              "项目期间在海牙无限次乘坐电车和公交。",
              "Tram et bus illimités à La Haye pendant le programme.",
            ),
            priceCents: 4500,
            sortOrder: 3,
          },
        ])
        .returning();
      if (!pickup || !insurance || !transport) throw new Error("seed: add-ons not inserted");

      // What the cohort's students read on /student/program and /student/trip.
      await tx.insert(cohortGuides).values({
        summerSchoolId: school.id,
        days: DEMO_PROGRAMME,
        whatToBring: DEMO_WHAT_TO_BRING,
        arrivalDate: c.start,
        arrivalInfo: DEMO_ARRIVAL_INFO,
        arrivalAddress: DEMO_ARRIVAL_ADDRESS,
        housingAddress: DEMO_HOUSING_ADDRESS,
        airportPickupAddOnId: pickup.id,
        insuranceProofRequired: true,
        insuranceAddOnId: insurance.id,
      });

      await tx.insert(packages).values([
        {
          summerSchoolId: school.id,
          name: L("Standard", "标准套餐", "Standard"),
          description: L(
            "Everything you need for two full weeks in The Hague.",
            "在海牙整整两周所需的一切。",
            "Tout ce qu’il faut pour deux semaines complètes à La Haye.",
          ),
          priceCents: 295000,
          includes: [
            L(
              "Tuition, workshops and the pitch session",
              "课程、工作坊和路演",
              "Cours, ateliers et session de pitch",
            ),
            // The nights between the cohort's first and last day (13 for a two-week cohort).
            L(
              `Shared room (2 people) for ${nights} nights`,
              `双人间住宿 ${nights} 晚`,
              `Chambre partagée (2 personnes), ${nights} nuits`,
            ),
            L("Breakfast and lunch every day", "每日早餐和午餐", "Petit-déjeuner et déjeuner chaque jour"),
            L("Cultural and company visits", "文化参观与企业参访", "Visites culturelles et d’entreprises"),
            L(
              "Certificate of completion and 6 ECTS",
              "结业证书及 6 个 ECTS 学分",
              "Certificat de réussite et 6 ECTS",
            ),
            L("Public transport card", "公共交通卡", "Carte de transport public"),
          ],
          includedAddOnIds: [transport.id],
          urgencyText: L("Most popular", "最受欢迎", "Le plus choisi"),
          urgencyColor: "green",
          sortOrder: 1,
        },
        {
          summerSchoolId: school.id,
          name: L("Premium", "尊享套餐", "Premium"),
          description: L(
            "The Standard package plus airport pickup, dinners and a one-to-one career session.",
            "标准套餐加机场接机、晚餐以及一对一职业发展辅导。",
            "La formule Standard avec l’accueil à l’aéroport, les dîners et un entretien carrière individuel.",
          ),
          priceCents: 345000,
          includes: [
            L("Everything in Standard", "包含标准套餐全部内容", "Toute la formule Standard"),
            L("Airport pickup", "机场接机", "Accueil à l’aéroport"),
            L("Dinner every day", "每日晚餐", "Dîner chaque jour"),
            L("One-to-one career session", "一对一职业发展辅导", "Entretien carrière individuel"),
          ],
          includedAddOnIds: [transport.id, pickup.id],
          urgencyText: L("Limited places", "名额有限", "Places limitées"),
          urgencyColor: "orange",
          sortOrder: 2,
        },
      ]);

      const [shared] = await tx
        .insert(housingOptions)
        .values([
          {
            summerSchoolId: school.id,
            name: L("Shared room (2 people)", "双人间", "Chambre partagée (2 personnes)"),
            description: L(
              "The standard option, included in the price.",
              "标准选项，已含在价格中。",
              "L’option standard, comprise dans le prix.",
            ),
            priceAdjustmentCents: 0,
            sortOrder: 1,
          },
          {
            summerSchoolId: school.id,
            name: L("Private room", "单人间", "Chambre individuelle"),
            description: L("A room of your own.", "独立房间。", "Une chambre rien que pour vous."),
            priceAdjustmentCents: 80000,
            sortOrder: 2,
          },
          {
            summerSchoolId: school.id,
            name: L("Group room (3-4 people)", "多人间（3 至 4 人）", "Chambre de groupe (3-4 personnes)"),
            description: L(
              "Share with three or four other students and save.",
              "与其他三到四名学生同住，更实惠。",
              "Partagez avec trois ou quatre étudiant·es et économisez.",
            ),
            priceAdjustmentCents: -30000,
            sortOrder: 3,
          },
        ])
        .returning();

      // Demo paid places so the cohort table shows "Full" and "Few spots left".
      if (c.paid > 0 && shared) {
        const [standard] = await tx
          .select()
          .from(packages)
          .where(sql`${packages.summerSchoolId} = ${school.id}`)
          .limit(1);
        const total = 295000 + 9500;
        const demo = Array.from({ length: c.paid }, (_, i) => ({
          applicantId: randomUUID(),
          applicationId: randomUUID(),
          i,
        }));
        await tx.insert(applicants).values(
          demo.map(({ applicantId, i }) => ({
            id: applicantId,
            firstName: "Demo",
            lastName: `Student ${c.slug} ${i + 1}`,
            email: `demo.${c.slug}.${i + 1}@students.example`,
            phone: "+31 70 000 0000",
            address: "Demo street 1",
            city: "The Hague",
            postalCode: "2500 AA",
            countryOfResidence: "NL",
            nationality: "NL",
            dateOfBirth: "2002-01-01",
            passportNumber: "DEMO0000",
            university: "Demo University",
            fieldOfStudy: "economics",
            studentStatus: "undergraduate",
            accessTokenHash: hashToken(newToken()),
          })),
        );
        await tx.insert(applications).values(
          demo.map(({ applicantId, applicationId }) => ({
            id: applicationId,
            applicantId,
            summerSchoolId: school.id,
            packageId: standard!.id,
            housingOptionId: shared.id,
            addOnIds: [insurance.id],
            status: "submitted" as const,
            paymentStatus: "paid" as const,
            originalAmountCents: total,
            discountAmountCents: 0,
            totalAmountCents: total,
            depositAmountCents: total,
            amountPaidCents: total,
            submittedAt: new Date(),
            paidAt: new Date(),
          })),
        );
        await tx.insert(payments).values(
          demo.map(({ applicationId, i }) => ({
            applicationId,
            provider: "none" as const,
            providerSessionId: `demo:${applicationId}`,
            providerReference: `demo-${i + 1}`,
            amountCents: total,
            currency: "EUR",
            paidAt: new Date(),
          })),
        );
        firstPaidApplicationId ??= demo[0]?.applicationId ?? null;
        if (c.slug.startsWith("july-"))
          for (const { applicationId } of demo.slice(0, 4))
            referred.push({ applicationId, total, start: c.start });
      }
    }

    const inserted = await tx
      .insert(codes)
      .values([
        {
          code: "WELCOME10",
          codeType: "discount",
          discountType: "percentage",
          discountValue: 10,
          description: "10% welcome discount",
        },
        {
          code: "SAVE200",
          codeType: "discount",
          discountType: "fixed",
          discountValue: 20000,
          description: "200 EUR off",
        },
        {
          code: "FULLSCHOLAR",
          codeType: "discount",
          discountType: "percentage",
          discountValue: 100,
          description: "Full scholarship",
        },
        {
          code: "LINDA2027",
          codeType: "referral",
          affiliateId: affiliate!.id,
          description: "Referral code of the demo affiliate",
        },
        {
          code: "SUMMER2024",
          codeType: "discount",
          discountType: "percentage",
          discountValue: 15,
          validTo: new Date(`${y - 2}-09-30T23:59:59Z`),
          description: "Expired campaign",
        },
        {
          code: "ONCEONLY",
          codeType: "discount",
          discountType: "fixed",
          discountValue: 10000,
          maxRedemptions: 1,
          description: "Single-use code, already used",
        },
      ])
      .returning();
    const usedUp = inserted.find((r) => r.code === "ONCEONLY");
    if (usedUp && firstPaidApplicationId) {
      await tx
        .insert(codeRedemptions)
        .values({ codeId: usedUp.id, applicationId: firstPaidApplicationId, status: "redeemed" });
    }
    await seedDemoReferrals(tx, {
      affiliateId: affiliate!.id,
      code: inserted.find((r) => r.code === "LINDA2027")!,
      referred,
      today,
    });
    return true;
  });
}

/**
 * The demo affiliate's activity (docs/product/codes-and-partners.md#partners), so its dashboard and the back office show something on a
 * fresh start: clicks on its link over the last 90 days from two campaigns, and four paid July
 * applications credited to it, each with its commission entry (10 % of the amount excluding VAT,
 * held until 29 days before the start, as decision 022 writes them).
 */
async function seedDemoReferrals(
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  p: {
    affiliateId: string;
    code: { id: string; code: string };
    referred: Array<{ applicationId: string; total: number; start: string }>;
    today: string;
  },
) {
  const day = Date.parse(`${p.today}T12:00:00Z`);
  const campaigns = ["wechat-spring", "wechat-spring", "fair-lagos", ""];
  const countries = ["CN", "CN", "NG", ""];
  await tx.insert(codeClicks).values(
    Array.from({ length: 64 }, (_, i) => ({
      codeId: p.code.id,
      code: p.code.code,
      sourceUrl: `https://hague-summer-school.example/?ref=${p.code.code}`,
      utmSource: campaigns[i % 4] ? "partner" : "",
      utmCampaign: campaigns[i % 4]!,
      hasCookieConsent: i % 3 !== 0,
      country: countries[(i * 7) % 4]!,
      createdAt: new Date(day - ((i * 37) % 90) * 86_400_000),
    })),
  );
  for (const [i, r] of p.referred.entries()) {
    const paidAt = new Date(day - (10 + i * 9) * 86_400_000);
    await tx
      .update(applications)
      .set({
        affiliateId: p.affiliateId,
        attributionCodeId: p.code.id,
        attributionSource: i % 2 ? "code" : "link",
        attributedAt: paidAt,
        attributionFrozenAt: paidAt,
        appliedCodeId: i % 2 ? p.code.id : null,
        createdAt: paidAt,
        submittedAt: paidAt,
        paidAt,
      })
      .where(sql`${applications.id} = ${r.applicationId}`);
    // The payment happened on the same day, so the partner's overview counts the enrolment then.
    const [payment] = await tx
      .update(payments)
      .set({ paidAt })
      .where(sql`${payments.providerSessionId} = ${`demo:${r.applicationId}`}`)
      .returning({ id: payments.id });
    const netPaid = r.total - includedVat(r.total);
    const rate = { type: "percentage" as const, percent: 10 };
    const release = releaseAt(r.start, 29);
    await tx.insert(commissionEntries).values({
      affiliateId: p.affiliateId,
      applicationId: r.applicationId,
      paymentId: payment?.id ?? null,
      kind: "payment",
      amountCents: commissionForPayment(rate, { netPaid, paidBefore: 0, paidAfter: r.total, total: r.total }),
      baseCents: netPaid,
      rate,
      availableAt: new Date(Math.max(release.getTime(), paidAt.getTime())),
      createdAt: paidAt,
    });
  }
}
