// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { MemoryRouter, type NavigateFunction, useLocation, useNavigate } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { type ListParams, useListParams } from "./list";

const FILTER_KEYS = ["namespace", "language", "q"] as const;

type Seen = { list?: ListParams; search?: string; navigate?: NavigateFunction };

/** Records what the list hook and the router give on each render. */
function Probe({ seen }: { seen: Seen }) {
  seen.list = useListParams({ filterKeys: FILTER_KEYS });
  seen.search = useLocation().search;
  seen.navigate = useNavigate();
  return null;
}

/** Renders a list at `address` and hands back its helpers and the address the router shows now. */
function setup(address: string) {
  const seen: Seen = {};
  render(
    <MemoryRouter initialEntries={[address]}>
      <Probe seen={seen} />
    </MemoryRouter>,
  );
  return {
    get list() {
      if (!seen.list) throw new Error("the list did not render");
      return seen.list;
    },
    search: () => new URLSearchParams(seen.search),
    /** A navigation the list did not make: a link, or Back. */
    navigate: (to: string) => seen.navigate?.(to),
  };
}

afterEach(cleanup);

describe("a back-office list's filters in the address", () => {
  it("keeps a section chosen just before a search is sent, when the page had not re-rendered in between", () => {
    // An owner picks a section and presses Enter in the search box at once: the navigation of the
    // first change renders as a transition, so the second can run before it did.
    const page = setup("/admin/translations?page=3");
    const { update } = page.list;
    act(() => {
      update({ namespace: "home" });
      update({ q: "hero.title" });
    });
    const search = page.search();
    expect(search.get("namespace")).toBe("home");
    expect(search.get("q")).toBe("hero.title");
    expect(search.has("page")).toBe(false);
  });

  it("clears every filter, also one set just before, and keeps what is not a filter", () => {
    const page = setup("/admin/translations?language=fr&pageSize=50");
    const { update, clearFilters } = page.list;
    act(() => {
      update({ q: "deadline" });
      clearFilters();
    });
    expect(page.search().toString()).toBe("pageSize=50");
  });

  it("follows the address when it changes from outside the list (Back, a link)", () => {
    const page = setup("/admin/translations?namespace=home");
    act(() => page.list.update({ language: "zh" }));
    expect(page.search().toString()).toBe("namespace=home&language=zh");
    act(() => void page.navigate("/admin/translations?namespace=faq"));
    act(() => page.list.filterProps("language").onChange("fr"));
    expect(page.search().toString()).toBe("namespace=faq&language=fr");
  });
});
