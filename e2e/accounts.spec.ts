import { expect, test } from "@playwright/test";
import { ADMIN_PASSWORD, acceptInvitation, OWNER, useBackOffice } from "./back-office";
import {
  chooseCookies,
  expectNoAxeViolations,
  linkFromOutbox,
  pathOf,
  payForApplicationThroughApi,
  registerStudent,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * Accounts of the three roles (docs/product/portals.md#route-guards): student registration, logout, login, guard and password
 * reset; affiliate registration; the admin back office from the invitation to accepting a paid
 * application. E-mails are read from the outbox (`<DATA_DIR>/outbox/*.eml`).
 */

test.describe("student account", () => {
  test("registers, logs out and in, is guarded, resets the password and verifies the e-mail", async ({
    page,
  }) => {
    const dataDir = process.env.E2E_DATA_DIR!;
    const email = uniqueEmail("student");
    await page.goto("/student/register");
    await chooseCookies(page, "necessary");
    await expect(page.getByRole("heading", { level: 1, name: "Create your student account" })).toBeVisible();
    await registerStudent(page, {
      firstName: "Amara",
      lastName: "Okafor",
      email,
      password: "kora music by the sea",
    });
    await expect(toastWith(page, "Registration successful")).toContainText("Welcome, Amara!");
    await expect(page).toHaveURL(/\/student\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Amara" })).toBeVisible();
    await expect(page.getByText("Please confirm your email address")).toBeVisible();

    // Logout, then the guard sends a signed-out visitor to the login.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/student\/login$/);
    await expect(toastWith(page, "Logged out")).toContainText("You have been successfully logged out.");
    await page.goto("/student/dashboard");
    await expect(page).toHaveURL(/\/student\/login$/);

    // A wrong password: one neutral message.
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill("not my password at all");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(toastWith(page, "Login failed")).toContainText("Invalid login credentials");

    await page.getByLabel("Password").fill("kora music by the sea");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(toastWith(page, "Login successful")).toContainText("Welcome back, Amara!");
    await expect(page).toHaveURL(/\/student\/dashboard$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/student\/login$/);

    // Password reset through the e-mailed link.
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/student\/reset-password$/);
    // The router keeps the previous page on screen while the next one loads: wait for it.
    await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByText("Check your inbox")).toBeVisible();
    const resetLink = await linkFromOutbox(dataDir, email, "/student/reset-password?token=");
    await page.goto(pathOf(resetLink));
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("New password").fill("tulips along the canal");
    await page.getByLabel("Repeat the password").fill("tulips along the canal");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText("Your password has been changed")).toBeVisible();
    await page.getByRole("link", { name: "Go to login" }).click();
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill("tulips along the canal");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/student\/dashboard$/);

    // The verification link of the registration e-mail.
    const verifyLink = await linkFromOutbox(dataDir, email, "/student/verify-email?token=");
    await page.goto(pathOf(verifyLink));
    await expect(page.getByText("Your email address is confirmed")).toBeVisible();
    await page.getByRole("link", { name: "Go to my dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Your applications" })).toBeVisible();
    await expect(page.getByText(/We found no application made with/)).toBeVisible();
  });

  test("login pages pass axe", async ({ page }) => {
    for (const url of [
      "/student/login",
      "/student/register",
      "/student/reset-password",
      "/affiliate/login",
    ]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, url);
    }
  });
});

test("an affiliate registers and sees the pending-approval page @phone", async ({ page }) => {
  await page.goto("/affiliate/register");
  await chooseCookies(page, "necessary");
  await page.getByLabel("Your name or organisation").fill("Lagos Study Abroad");
  await page.getByLabel("Email address").fill(uniqueEmail("partner"));
  await page.getByLabel("Password").fill("partners in the hague");
  await page.getByLabel("Country").selectOption("NG");
  await page.getByRole("button", { name: "Create partner account" }).click();
  await expect(page).toHaveURL(/\/affiliate\/register-success$/);
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for registering" })).toBeVisible();
  await expect(page.getByText("waiting for approval")).toBeVisible();
});

test.describe("admin back office", () => {
  test.describe.configure({ mode: "serial" });
  const backOffice = useBackOffice("admin");

  test("an owner accepts the invitation, reviews a paid application, adds a note and accepts it", async ({
    browser,
  }) => {
    test.setTimeout(180_000);

    const applicant = await backOffice.newPage(browser);
    const applicantEmail = uniqueEmail("applicant");
    await payForApplicationThroughApi(applicant, { email: applicantEmail, school: /— August \d{4}/ });
    await applicant.context().close();

    // The owner's invitation: name and password, then signed in on the dashboard.
    const page = await backOffice.newPage(browser);
    await acceptInvitation(page, backOffice.ownerInvite, OWNER.name);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Places filled per cohort" })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/dashboard");

    // Log out and in again.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expectNoAxeViolations(page, "/admin/login");
    await page.goto("/admin/applications");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.getByLabel("Email address").fill(OWNER.email);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(toastWith(page, "Login successful")).toContainText("Welcome back, Olivia Owner!");
    // Back to the page that asked for the login.
    await expect(page).toHaveURL(/\/admin\/applications$/);

    // Find the paid application.
    await page.getByLabel("Search by name or email").fill(applicantEmail);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/q=applicant/);
    await page.getByLabel("Payment status").selectOption("paid");
    await expect(page).toHaveURL(/paymentStatus=paid/);
    await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      /\/api\/admin\/applications\.csv\?.*paymentStatus=paid/,
    );
    await page.getByRole("button", { name: /^Created/ }).click();
    await expect(page.getByRole("columnheader", { name: /Created/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await expectNoAxeViolations(page, "/admin/applications");
    await page.getByRole("link", { name: "Amara Okafor" }).click();

    // The detail: applicant data, passport link, payment.
    await expect(page.getByRole("heading", { level: 1, name: "Amara Okafor" })).toBeVisible();
    await expect(page.getByText(applicantEmail).first()).toBeVisible();
    const passport = page.getByRole("link", { name: "Download passport (PDF)" });
    await expect(passport).toHaveAttribute("href", /\/api\/admin\/applicants\/[0-9a-f-]+\/passport$/);
    const download = await page.request.get((await passport.getAttribute("href"))!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toContain("application/pdf");
    await expect(page.getByRole("heading", { name: "Payments", exact: true })).toBeVisible();
    await expect(page.getByText("No payment received.")).toHaveCount(0);

    // A note.
    await page
      .getByLabel("Add a note")
      .fill("Passport checked against the application. Visa letter to follow.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(toastWith(page, "Note added")).toBeVisible();
    await expect(page.getByText("Passport checked against the application.")).toBeVisible();

    // The workflow: submitted → under review → accepted, each confirmed in a dialog.
    await page.getByRole("button", { name: "Start review" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Under review");
    await dialog.getByRole("button", { name: "Start review" }).click();
    await expect(toastWith(page, "Status changed")).toBeVisible();
    await page.getByRole("button", { name: "Accept", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Accept", exact: true }).click();
    await expect(toastWith(page, "Status changed")).toContainText("Accepted");
    await expect(page.getByRole("button", { name: "Mark as withdrawn" })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/applications/:id");

    // An unknown application shows the server's message.
    await page.goto("/admin/applications/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { level: 1, name: "Application not found" })).toBeVisible();
    await expect(page.getByText("We could not find what you asked for.")).toBeVisible();
    await page.context().close();
  });
});
