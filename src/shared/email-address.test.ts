import { describe, expect, it } from "vitest";
import { mailboxOf, sameMailbox } from "./email-address";

describe("one person's mailbox (docs/product/codes-and-partners.md#self-referral)", () => {
  it.each([
    ["Ann+self@Example.com", "ann@example.com"],
    ["a.n.n@gmail.com", "ann@gmail.com"],
    ["A.nn+agent@googlemail.com", "ann@gmail.com"],
    ["first.last@university.edu", "first.last@university.edu"],
    ["+tag@example.com", "+tag@example.com"],
  ])("%s delivers to %s", (email, mailbox) => {
    expect(mailboxOf(email)).toBe(mailbox);
  });

  it("tells one person's addresses from two people's", () => {
    expect(sameMailbox("ann+self@example.com", "ANN@example.com")).toBe(true);
    expect(sameMailbox("ann.smith@gmail.com", "annsmith+x@gmail.com")).toBe(true);
    expect(sameMailbox("ann.smith@example.com", "annsmith@example.com")).toBe(false);
    expect(sameMailbox("ann@example.com", "ann@example.org")).toBe(false);
  });
});
