// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { Home, UserRound } from "lucide-react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import common from "../../../shared/i18n/locales/en/common.json";
import profile from "../../../shared/i18n/locales/en/profile.json";
import { createI18n } from "../../lib/i18n";
import { type PortalNavigation, PortalShell } from "./PortalShell";

const NAVIGATION: PortalNavigation = {
  label: "Partner area",
  menu: "Menu",
  close: "Close the menu",
  items: [
    { to: "/affiliate/dashboard", label: "Overview", icon: Home },
    { to: "/affiliate/profile", label: "Profile", icon: UserRound },
  ],
};

function setup(navigation: PortalNavigation | null = NAVIGATION) {
  const onSignOut = vi.fn();
  const i18n = createI18n("en", { en: { common, profile } });
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={["/affiliate/profile"]}>
        <Routes>
          <Route
            element={
              <PortalShell
                area="Partner area"
                greeting="Hello, Linda"
                languageLabel="Language of these pages"
                navigation={navigation}
                signOut={{ label: "Log out", onSignOut, pending: false }}
              />
            }
          >
            <Route path="/affiliate/profile" element={<h1>Profile</h1>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
  return { onSignOut };
}

afterEach(cleanup);

/** The frame of the student portal and the partner area (docs/product/portals.md#partner-area): what a signed-in person finds on every page. */
describe("the portal shell", () => {
  it("names the school, the area and who is signed in, skips to the page, and signs out", () => {
    const { onSignOut } = setup();
    const header = screen.getByRole("banner");
    expect(within(header).getByRole("link", { name: common.brand.name }).getAttribute("href")).toBe("/");
    expect(within(header).getByText("Partner area")).toBeTruthy();
    expect(within(header).getByText("Hello, Linda")).toBeTruthy();
    expect(within(header).getByLabelText("Language of these pages")).toBeTruthy();
    expect(screen.getByRole("link", { name: common.nav.skipToContent }).getAttribute("href")).toBe("#main");
    expect(screen.getByRole("main").id).toBe("main");
    expect(within(screen.getByRole("main")).getByRole("heading", { name: "Profile" })).toBeTruthy();
    fireEvent.click(within(header).getByRole("button", { name: "Log out" }));
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it("marks the current page in the navigation, and its phone menu opens and closes with Escape", () => {
    setup();
    const nav = screen.getByRole("navigation", { name: "Partner area" });
    expect(within(nav).getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBe("page");
    expect(within(nav).getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBeNull();
    const button = within(nav).getByRole("button", { name: "Menu" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(button.textContent).toBe("Close the menu");
    fireEvent.keyDown(within(nav).getByRole("list"), { key: "Escape" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(button);
  });

  it("has no navigation for an area that has none yet (a partner awaiting approval)", () => {
    setup(null);
    expect(screen.queryByRole("navigation")).toBeNull();
    expect(screen.getByRole("button", { name: "Log out" })).toBeTruthy();
  });
});
