import { expect, type Page, test } from "@playwright/test";
import { tapField, uniqueEmail } from "./support";

/** The scripts the page runs from now on (files fetched ahead are not scripts to the browser). */
function scriptsRun(page: Page): string[] {
  const paths: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") paths.push(new URL(request.url()).pathname);
  });
  return paths;
}

/**
 * The public forms run as islands until used (decision 042): a visitor on a slow phone reads
 * /contact with the content pages' few kilobytes of script; the form starts when they reach for it,
 * and then works as before (docs/product/portals.md#public-forms).
 */
test.describe("a visitor writes to the school from /contact", () => {
  test("the form starts at the first tap on it, keeps that tap, and the message is sent @phone", async ({
    page,
    baseURL,
  }) => {
    // A returning visitor: the cookie notice, whose buttons would start the form too, is not shown.
    await page.context().addCookies(
      [
        ["cookieconsent_status", "accepted"],
        ["cookieconsent_necessary_only", "true"],
      ].map(([name, value]) => ({ name: name!, value: value!, url: baseURL! })),
    );
    const scripts = scriptsRun(page);
    await page.goto("/contact");
    await page.waitForLoadState("networkidle");
    // Nothing but the islands' files so far: no application, no form library.
    expect(scripts.filter((path) => /\/(start|framework|ContactPage|zod)-[\w-]+\.js$/.test(path))).toEqual(
      [],
    );
    const name = page.getByLabel("Your name");
    await expect(name).toBeDisabled();

    // The field is where the visitor sees it without scrolling (scrolling would start the form first).
    const box = await name.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(page.viewportSize()!.height);
    await tapField(page, name);
    expect(scripts.some((path) => /\/ContactPage-[\w-]+\.js$/.test(path))).toBe(true);
    // The tap was not lost: the field has the focus once the form works, and takes what is typed.
    await expect(name).toBeFocused();
    await page.keyboard.type("Chidinma Eze");
    await expect(name).toHaveValue("Chidinma Eze");

    await page.getByLabel("E-mail address").fill(uniqueEmail("contact"));
    await page
      .getByLabel("Your message")
      .fill("Is there a reduced fee for a second child from the same family?");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Thank you, your message has been sent")).toBeVisible();
  });
});
