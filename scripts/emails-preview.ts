/**
 * Writes every e-mail the school sends, in English, Chinese and French, as the outbox stores it
 * (document head, school footer), to a folder: `<dir>/<language>/<template>.html` and `.txt`, plus
 * an index.html linking them. Usage: `npm run emails:preview [-- <dir>]` (default: emails-preview/).
 * The e-mails are built from the demo facts of src/server/testing/email-specimens.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EMAIL_SPECIMENS, queuedSpecimen } from "../src/server/testing/email-specimens";
import { LANGUAGES } from "../src/shared/i18n/languages";

const dir = path.resolve(process.argv[2] ?? "emails-preview");
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const links: string[] = [];
for (const language of LANGUAGES) {
  mkdirSync(path.join(dir, language), { recursive: true });
  for (const specimen of EMAIL_SPECIMENS) {
    const email = queuedSpecimen(specimen, language);
    const file = `${language}/${slug(specimen.name)}`;
    writeFileSync(path.join(dir, `${file}.html`), email.html);
    writeFileSync(path.join(dir, `${file}.txt`), `Subject: ${email.subject}\n\n${email.text}\n`);
    links.push(
      `<li><a href="${file}.html">${language}: ${specimen.name}</a> (<a href="${file}.txt">text</a>)</li>`,
    );
  }
}
writeFileSync(
  path.join(dir, "index.html"),
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>E-mails</title></head><body><ul>${links.join("")}</ul></body></html>`,
);
console.log(`${links.length} e-mails written to ${dir}`);
