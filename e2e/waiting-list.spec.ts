import { expect, type Locator, type Page, test } from "@playwright/test";
import { acceptInvitation, OWNER, useBackOffice } from "./back-office";
import {
  chooseCookies,
  expectNoAxeViolations,
  fillPersonalStep,
  linkFromOutbox,
  pathOf,
  tapField,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * The waiting list of a full cohort as its people live it (docs/product/admissions.md#waiting-list, decision 027):
 * a visitor joins the list of the full demo cohort (June) from the cohort table; the owner sees them
 * waiting on the cohort's screen and frees a place by raising the capacity; the visitor gets the
 * offer by e-mail, opens it, applies and pays on the offline checkout; the owner sees the entry
 * enrolled. The story runs on a back-office server of its own (fresh database, see back-office.ts).
 */

const VISITOR = "Amara Okafor";

/** The row of `name` in the waiting list section, after pressing Refresh until it shows `status`. */
async function expectStatus(section: Locator, name: string, status: string) {
  const row = section
    .getByRole("row")
    .filter({ has: section.page().getByRole("rowheader", { name: new RegExp(`^${name}`) }) });
  // The server makes offers and marks enrolments in the background, a moment after the event.
  await expect(async () => {
    await section.getByRole("button", { name: "Refresh" }).click();
    await expect(row.getByText(status, { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  return row;
}

/** The June cohort's screen, opened from the cohorts list's "Waiting list" link. */
async function openJuneWaitingList(page: Page): Promise<Locator> {
  await page.goto("/admin/courses");
  await page.getByRole("link", { name: /^Waiting list of .*— June \d{4}$/ }).click();
  await expect(page).toHaveURL(/\/admin\/summer-schools\/[0-9a-f-]{36}#waiting-list$/);
  const section = page.getByRole("region", { name: "Waiting list", exact: true });
  // The first visit of the page on a fresh server waits for its texts (loaded lazily), which the
  // server, still busy starting up, can take well over the usual 15 s to send.
  await expect(section.getByRole("table", { name: "People on the waiting list, in line order" })).toBeVisible(
    { timeout: 60_000 },
  );
  return section;
}

test.describe("the waiting list of a full cohort", () => {
  const backOffice = useBackOffice("waiting-list");

  test("a visitor joins, a place frees up, the offer is taken and paid, and the entry shows enrolled", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const email = uniqueEmail("waitlist");

    // The visitor finds June full on the home page and joins its waiting list.
    const visitor = await backOffice.newPage(browser);
    await visitor.goto("/");
    await chooseCookies(visitor, "necessary");
    const june = visitor
      .getByRole("table", { name: "Upcoming cohorts in The Hague and their application status" })
      .getByRole("row")
      .filter({ has: visitor.getByRole("rowheader", { name: /— June \d{4}/ }) });
    await june.getByRole("link").click();
    await expect(visitor).toHaveURL(/\/waiting-list\/[0-9a-f-]{36}$/);
    // The form is in the page and works from the first tap on it (decision 042: islands until used).
    await tapField(visitor, visitor.getByRole("textbox", { name: "Full name" }));
    await expect(visitor.getByRole("textbox", { name: "Full name" })).toBeFocused();
    await visitor.getByRole("textbox", { name: "Full name" }).fill(VISITOR);
    await visitor.getByRole("textbox", { name: "E-mail address" }).fill(email);
    await visitor.getByLabel(/I agree that The Hague Summer School keeps my name/).check();
    await visitor.getByRole("button", { name: "Join the waiting list" }).click();
    await expect(visitor.getByText("Thank you")).toBeVisible();

    // The owner sees them first in line, with no place free and so no offer possible.
    const owner = await backOffice.newPage(browser);
    await acceptInvitation(owner, backOffice.ownerInvite, OWNER.name);
    let section = await openJuneWaitingList(owner);
    const row = section
      .getByRole("row")
      .filter({ has: section.page().getByRole("rowheader", { name: new RegExp(`^${VISITOR}`) }) });
    await expect(row.getByRole("cell").first()).toHaveText("1");
    await expect(row.getByText("Waiting", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: `Send an offer to ${VISITOR}` })).toBeDisabled();
    await expect(section.getByText(/No place is free, so no offer can be sent/)).toBeVisible();
    await expectNoAxeViolations(owner, "the cohort's waiting list");

    // A place frees up: the owner raises the capacity by one.
    const details = owner.getByRole("region", { name: "Details", exact: true });
    const capacity = details.getByLabel("Capacity (places)");
    const before = Number(await capacity.inputValue());
    await capacity.fill(String(before + 1));
    await details.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(owner, "Changes saved")).toBeVisible();
    // The place goes to the first in line at once: an offer that holds it.
    const offered = await expectStatus(section, VISITOR, "Offer sent");
    await expect(offered.getByText(/\(time in The Hague\)$/)).toBeVisible();

    // The visitor opens the offer from the e-mail, applies for the held place and pays.
    const offer = await linkFromOutbox(backOffice.dataDir, email, "/waiting-list/offer/");
    await visitor.goto(pathOf(offer));
    await visitor.getByRole("link", { name: "Apply for your place" }).click();
    await expect(visitor).toHaveURL(/\/apply\?school=/);
    await expect(visitor.getByRole("radio", { name: /— June \d{4}/ })).toBeChecked();
    await expect(visitor.getByRole("button", { name: "Continue to Application" })).toBeEnabled();
    await visitor.getByRole("button", { name: "Continue to Application" }).click();
    await fillPersonalStep(visitor, { email });
    await visitor.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(visitor.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
    await visitor.getByLabel(/I have read and accept/).check();
    await visitor.getByRole("button", { name: /Proceed to Payment/ }).click();
    await expect(visitor).toHaveURL(/\/test-payment\?session_id=/);
    await visitor.getByRole("button", { name: /^Pay/ }).click();
    await expect(visitor.getByText("Payment Received")).toBeVisible();
    await visitor.context().close();

    // The owner sees the entry enrolled, its place counted as paid.
    section = await openJuneWaitingList(owner);
    const enrolled = await expectStatus(section, VISITOR, "Enrolled");
    await expect(enrolled.getByRole("button")).toHaveCount(0);
    await expect(
      section.getByText("Paid", { exact: true }).locator("xpath=following-sibling::dd"),
    ).toHaveText(String(before + 1));
    await expectNoAxeViolations(owner, "the cohort's waiting list with the entry enrolled");
    await owner.context().close();
  });
});
