import { expect, type Page, test } from "@playwright/test";
import { decodeQrPng } from "../src/server/testing/qr";
import { acceptInvitationByApi, OWNER, useBackOffice } from "./back-office";
import {
  chooseCookies,
  expectNoAxeViolations,
  linkFromOutbox,
  pathOf,
  payForApplicationThroughApi,
  registerStudent,
  uniqueEmail,
} from "./support";

/**
 * The student pass (docs/product/admissions.md#student-pass, "a student opens the pass and a checker scans it"): a student whose
 * application is paid and accepted opens /student/qrcode, the QR code on the screen is read as a
 * phone's camera would read it, and a checker who opens that address sees VALID with the holder's
 * initials. After the student replaces the pass (a lost phone), the old code says "Pass replaced".
 * Runs on a back-office server of its own: an admin accepts the application.
 */
/** The URL the QR code on the page holds, read from a screenshot of the QR image. */
async function scanQr(page: Page): Promise<string> {
  const qr = page.getByTestId("pass-qr");
  await expect(qr).toBeVisible();
  const text = decodeQrPng(await qr.screenshot());
  expect(text, "the QR code on the screen decodes").not.toBeNull();
  return text!;
}

test.describe("student pass", () => {
  const backOffice = useBackOffice("pass");

  test("a student with a paid, accepted application shows the pass; a checker scans it and sees VALID", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const email = uniqueEmail("pass.holder");
    const password = "lighthouse on the dunes";

    // The applicant applies and pays the whole fee on the offline provider's checkout page.
    const student = await backOffice.newPage(browser);
    await payForApplicationThroughApi(student, { email, school: /— August/ });

    // The school accepts the application.
    const admin = await backOffice.newPage(browser);
    await acceptInvitationByApi(admin, backOffice, backOffice.ownerInvite, OWNER.name);
    const headers = { origin: backOffice.origin };
    const list = await admin.request.get(`/api/admin/applications?q=${encodeURIComponent(email)}`);
    const applicationId = (await list.json()).items[0].id as string;
    for (const status of ["under_review", "accepted"]) {
      const detail = await (await admin.request.get(`/api/admin/applications/${applicationId}`)).json();
      const moved = await admin.request.patch(`/api/admin/applications/${applicationId}/status`, {
        data: { status, version: detail.version },
        headers,
      });
      expect(moved.status(), await moved.text()).toBe(200);
    }

    // The applicant makes a student account with the same e-mail address and confirms it.
    await student.goto("/student/register");
    await registerStudent(student, { firstName: "Amara", lastName: "Okafor", email, password });
    await expect(student).toHaveURL(/\/student\/dashboard$/);
    await student.goto(
      pathOf(await linkFromOutbox(backOffice.dataDir, email, "/student/verify-email?token=")),
    );
    await expect(student.getByText("Your email address is confirmed")).toBeVisible();

    // The pass: name, cohort, statuses in words, VALID, and the QR code.
    await student.goto("/student/qrcode");
    await expect(student.getByRole("heading", { level: 1, name: "Your student pass" })).toBeVisible();
    await expect(student.getByText("Amara Okafor")).toBeVisible();
    await expect(student.getByText("Accepted", { exact: true })).toBeVisible();
    await expect(student.getByText("Paid", { exact: true })).toBeVisible();
    await expect(student.getByText("Valid: a checker who scans this code sees VALID.")).toBeVisible();
    const scanned = await scanQr(student);
    expect(scanned).toMatch(new RegExp(`^${backOffice.origin}/student-pass/[A-Za-z0-9_-]{43}$`));
    expect(scanned).not.toContain(applicationId);
    await expect(student.getByTestId("pass-check-link")).toHaveAttribute("href", scanned);
    await expectNoAxeViolations(student, "/student/qrcode");

    // A checker with no account scans it.
    const checker = await backOffice.newPage(browser);
    await checker.goto(pathOf(scanned));
    await chooseCookies(checker, "necessary");
    await expect(checker.getByRole("status")).toHaveText("VALID");
    await expect(checker.getByText("A. O.")).toBeVisible();
    await expect(checker.getByText("Okafor")).toHaveCount(0);
    await expectNoAxeViolations(checker, "/student-pass/:token");

    // The old address made of the application id proves nothing.
    await checker.goto(`/student-pass/${applicationId}`);
    await expect(checker.getByRole("status")).toHaveText("NOT VALID");
    await expect(checker.getByText("Pass not found")).toBeVisible();

    // A lost phone: the student replaces the pass, after a confirmation.
    await student.getByRole("button", { name: "Replace this pass" }).click();
    const dialog = student.getByRole("dialog", { name: "Replace your student pass?" });
    await dialog.getByRole("button", { name: "Replace the pass" }).click();
    await expect(dialog).toBeHidden();
    await expect(student.getByTestId("pass-check-link")).not.toHaveAttribute("href", scanned);
    const replaced = await scanQr(student);
    expect(replaced).not.toBe(scanned);

    await checker.goto(pathOf(scanned));
    await expect(checker.getByRole("status")).toHaveText("NOT VALID");
    await expect(checker.getByText("Pass replaced")).toBeVisible();
    await expect(checker.getByText("A. O.")).toHaveCount(0);
    await checker.goto(pathOf(replaced));
    await expect(checker.getByRole("status")).toHaveText("VALID");
  });
});
