/**
 * The mailbox an e-mail address delivers to, for telling whether two addresses are one person's
 * (docs/product/codes-and-partners.md#self-referral: `ann+self@example.com` reaches Ann's own mailbox). Lower case; the `+tag` of
 * the local part dropped (sub-addressing, which most providers deliver to the same mailbox); for
 * Gmail (gmail.com, googlemail.com) the dots of the local part dropped too, as Gmail ignores them.
 * Not for sending: only for comparing.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replace(/\./g, "");
  return `${local}@${domain}`;
}

/** Whether two e-mail addresses deliver to one mailbox (`mailboxOf`). */
export const sameMailbox = (a: string, b: string) => mailboxOf(a) === mailboxOf(b);
