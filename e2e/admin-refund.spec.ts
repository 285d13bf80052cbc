import { expect, test } from "@playwright/test";
import { acceptInvitationByApi, inviteAdmin, OWNER, useBackOffice } from "./back-office";
import {
  demoQuote,
  euros,
  expectNoAxeViolations,
  linkFromOutbox,
  locale,
  payForApplicationThroughApi,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * Refunds in the back office (docs/product/back-office.md#finance): an applicant pays through the offline checkout; a
 * finance admin opens the application, refunds part of the payment through the refund panel (the
 * policy's suggestion prefilled, a reason, a confirmation), sees the payment status change and finds
 * the refund in /admin/finances, which axe checks. The application page lists the payment's invoice
 * and the refund's credit note, and the credit note downloads as a PDF. The back office runs on a server of its own (see
 * back-office.ts); the owner invites the finance admin through the API.
 */

const PARTLY_REFUNDED: string = locale("en", "admin").paymentStatus.partially_refunded;
/** What the applicant pays: Standard package and shared room (3,045.00 EUR), less the early discount when in effect. */
const PAID = demoQuote(304_500).totalAmount;

test.describe("refunds in the back office", () => {
  const backOffice = useBackOffice("refund");

  test("a finance admin refunds part of a payment", async ({ browser }) => {
    test.setTimeout(180_000);

    const applicant = await backOffice.newPage(browser);
    const applicantEmail = uniqueEmail("refund");
    await payForApplicationThroughApi(applicant, { email: applicantEmail, school: /— August \d{4}/ });
    await applicant.context().close();

    // The owner invites a finance admin, who accepts.
    const owner = await backOffice.newPage(browser);
    await acceptInvitationByApi(owner, backOffice, backOffice.ownerInvite, OWNER.name);
    const financeEmail = uniqueEmail("finance");
    await inviteAdmin(owner, backOffice, { email: financeEmail, name: "Fatima Finance", role: "finance" });
    await owner.context().close();
    const page = await backOffice.newPage(browser);
    await acceptInvitationByApi(
      page,
      backOffice,
      await linkFromOutbox(backOffice.dataDir, financeEmail, "/admin/accept-invite?token="),
      "Fatima Finance",
    );

    // The paid application, found by the applicant's e-mail.
    await page.goto(`/admin/applications?q=${encodeURIComponent(applicantEmail)}`);
    await page.getByRole("link", { name: "Amara Okafor" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Amara Okafor" })).toBeVisible();
    const panel = page.getByRole("region", { name: "Refunds", exact: true });
    await expect(panel.getByText("Refund policy")).toBeVisible();
    await expect(panel.getByText("No refunds yet.")).toBeVisible();
    // The amount is prefilled with the policy's suggestion (70 % of what was paid more than 60 days ahead, …).
    await expect(panel.getByLabel("Amount to refund (EUR)")).not.toHaveValue("");

    // A reason is required; an amount above what was paid is refused next to the field.
    await panel.getByLabel("Amount to refund (EUR)").fill("5000");
    await panel.getByRole("button", { name: "Refund…" }).click();
    await expect(panel.getByText("The amount is more than can still be refunded.")).toBeVisible();
    await expect(panel.getByText("Please give a reason for the refund.")).toBeVisible();

    await panel.getByLabel("Amount to refund (EUR)").fill("500");
    await panel.getByLabel("Reason").fill("Arrives a week late: partial refund agreed with the applicant");
    await panel.getByRole("button", { name: "Refund…" }).click();
    const dialog = page.getByRole("dialog", { name: "Refund €500.00?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Refund now" }).click();
    await expect(toastWith(page, "€500.00 has been refunded.")).toBeVisible();

    // The application is now partly refunded; the refund is listed in the panel.
    await expect(page.getByText(PARTLY_REFUNDED).first()).toBeVisible();
    await expect(panel.getByText("No refunds yet.")).toHaveCount(0);
    await expect(panel.getByRole("listitem").filter({ hasText: "Arrives a week late" })).toContainText(
      "€500.00",
    );
    // The payment's invoice and the refund's credit note, each downloadable as a PDF (docs/product/payments.md#credit-notes).
    const documents = page.getByRole("region", { name: "Invoices and credit notes" });
    await expect(documents.getByRole("row")).toHaveCount(3);
    await expect(documents.getByRole("row").nth(1)).toContainText(euros(PAID));
    await expect(documents.getByRole("row").nth(2)).toContainText("-€500.00");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      documents.getByRole("link", { name: /^Credit note \d{4}-\d{6}: download the PDF$/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^credit-note-\d{4}-\d{6}\.pdf$/);
    await expectNoAxeViolations(page, "/admin/applications/:id with the refund panel");

    // The refund is in the ledger of /admin/finances, and the revenue is net of it.
    await page.goto("/admin/finances");
    await expect(page.getByRole("heading", { level: 1, name: "Finances" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Revenue per programme" })).toContainText(euros(PAID));
    await expect(page.getByRole("table", { name: "Revenue per programme" })).toContainText(
      euros(PAID - 50_000),
    );
    const ledger = page.getByRole("table", { name: "Payments and refunds" });
    const refundRow = ledger.getByRole("row").filter({ hasText: "Arrives a week late" });
    await expect(refundRow).toContainText("−€500.00");
    await expect(refundRow).toContainText("Amara Okafor");
    const paymentRow = ledger
      .getByRole("row")
      .filter({ hasText: applicantEmail })
      .filter({ hasText: "Payment" });
    await expect(paymentRow).toContainText(euros(PAID));
    await expect(page.getByRole("link", { name: "Export ledger (CSV)" })).toHaveAttribute(
      "href",
      "/api/admin/finances/ledger.csv",
    );
    await expectNoAxeViolations(page, "/admin/finances");

    // Search and the kind filter narrow the ledger (kept in the address).
    await page.getByLabel("Type").selectOption("refund");
    await expect(page).toHaveURL(/kind=refund/);
    await expect(paymentRow).toHaveCount(0);
    await expect(refundRow).toBeVisible();
    await page.context().close();
  });
});
