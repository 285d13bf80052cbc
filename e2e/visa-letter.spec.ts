import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import {
  expectNoAxeViolations,
  linkFromOutbox,
  pathOf,
  payForApplicationThroughApi,
  registerStudent,
  uniqueEmail,
} from "./support";

/** The QR codes of the images in a PDF, decoded (pdfimages, then jsQR). */
function qrCodesOf(pdf: Buffer): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "visa-letter-"));
  try {
    writeFileSync(path.join(dir, "letter.pdf"), pdf);
    execFileSync("pdfimages", ["-png", path.join(dir, "letter.pdf"), path.join(dir, "img")]);
    return readdirSync(dir)
      .filter((name) => name.startsWith("img"))
      .map((name) => PNG.sync.read(readFileSync(path.join(dir, name))))
      .map((image) => jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? "")
      .filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * See docs/product/admissions.md#documents-and-letters: a student who paid downloads the visa invitation letter from the portal's
 * API, and a consulate scans its QR code: the public page says the letter is genuine and shows no
 * more than initials and dates. (Playwright's own `test`: the hosted checkout returns to
 * `localhost`, the configured origin.)
 */
test("a student's visa invitation letter is checked by a consulate through its QR code", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("visa");
  await payForApplicationThroughApi(page, { email, school: /— August \d{4}/ });

  // The student creates the portal account with the applicant's e-mail and confirms it.
  await page.goto(`/student/register?email=${encodeURIComponent(email)}`);
  await registerStudent(page, {
    firstName: "Amara",
    lastName: "Okafor",
    email,
    password: "kora music by the sea",
  });
  await expect(page).toHaveURL(/\/student\/dashboard$/);
  const verify = await linkFromOutbox(process.env.E2E_DATA_DIR!, email, "/student/verify-email?token=");
  await page.goto(pathOf(verify));
  await expect(page.getByText("Your email address is confirmed")).toBeVisible();

  const applications = (await (await page.request.get("/api/student/applications")).json()) as Array<{
    id: string;
  }>;
  expect(applications).toHaveLength(1);
  const letter = await page.request.get(`/api/student/applications/${applications[0]!.id}/visa-letter.pdf`);
  expect(letter.status()).toBe(200);
  expect(letter.headers()["cache-control"]).toBe("no-store");
  const [qr] = qrCodesOf(await letter.body());
  expect(qr).toMatch(/\/verify\/visa-letter\/[A-Za-z0-9_-]{43}$/);

  // The consulate: another browser, no session, in French.
  const context = await browser.newContext({ baseURL });
  const consulate = await context.newPage();
  await context.addCookies([
    { name: "language", value: "fr", url: baseURL! },
    { name: "cookieconsent_status", value: "accepted", url: baseURL! },
    { name: "cookieconsent_necessary_only", value: "true", url: baseURL! },
  ]);
  await consulate.goto(pathOf(qr!));
  await expect(consulate.getByRole("status").filter({ hasText: "Authentique" })).toBeVisible();
  await expect(consulate.getByText("A. O.")).toBeVisible();
  await expect(consulate.getByText("Okafor")).toHaveCount(0);
  await expectNoAxeViolations(consulate, "/verify/visa-letter");

  // A code that no letter has.
  await consulate.goto(`/verify/visa-letter/${"x".repeat(43)}`);
  await expect(consulate.getByRole("status").filter({ hasText: "Introuvable" })).toBeVisible();
  await context.close();
});
