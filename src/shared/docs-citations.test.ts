/**
 * Citations of the product rules stay followable: every `docs/<path>.md#<anchor>` written in
 * src/, e2e/ or scripts/ names a file of the repository and a heading of that file (its anchor
 * computed as GitHub does), and src/ cites no document that lives outside the repository.
 * How to cite: docs/product/README.md.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["src", "e2e", "scripts"];
const SOURCE = /\.(?:[cm]?[jt]sx?|md|css|html|sql)$/;
const SELF = path.relative(ROOT, __filename);

/** Every source file under `dir` (relative to the repository), skipping dependencies and builds. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(ROOT, rel))) {
      if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
      const child = path.join(rel, name);
      if (statSync(path.join(ROOT, child)).isDirectory()) walk(child);
      else if (SOURCE.test(name)) out.push(child);
    }
  };
  walk(dir);
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings (outside fenced code), with GitHub's -1, -2 for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1] ?? "");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const sources = SCANNED.flatMap(filesUnder)
  .filter((file) => file !== SELF)
  .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }));

describe("slugOf and anchorsOf", () => {
  it("compute GitHub's anchors", () => {
    expect(slugOf("S7 Sessions of one kind do not open another")).toBe(
      "s7-sessions-of-one-kind-do-not-open-another",
    );
    expect(slugOf("D2 Passports encrypted, personal data out of logs")).toBe(
      "d2-passports-encrypted-personal-data-out-of-logs",
    );
    expect(slugOf("Numbers, dates and money")).toBe("numbers-dates-and-money");
    expect([
      ...anchorsOf("# A\n## Deposit and balance\n```\n# not a heading\n```\n## Deposit and balance\n"),
    ]).toEqual(["a", "deposit-and-balance", "deposit-and-balance-1"]);
  });
});

describe("citations of docs/", () => {
  it("name an existing file and one of its headings", () => {
    const anchorCache = new Map<string, Set<string> | null>();
    const anchorsOfFile = (file: string) => {
      if (!anchorCache.has(file)) {
        let anchors: Set<string> | null = null;
        try {
          anchors = anchorsOf(readFileSync(path.join(ROOT, file), "utf8"));
        } catch {
          anchors = null;
        }
        anchorCache.set(file, anchors);
      }
      return anchorCache.get(file);
    };
    const broken: string[] = [];
    let count = 0;
    for (const { file, text } of sources) {
      for (const match of text.matchAll(/\bdocs\/([\w./-]+?\.md)#([\w-]+)/g)) {
        count++;
        const target = `docs/${match[1]}`;
        const anchors = anchorsOfFile(target);
        const line = text.slice(0, match.index).split("\n").length;
        if (!anchors) broken.push(`${file}:${line}: ${target} does not exist`);
        else if (!anchors.has(match[2] ?? ""))
          broken.push(`${file}:${line}: no heading #${match[2]} in ${target}`);
      }
    }
    expect(broken, broken.join("\n")).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(0);
  });
});

/*
 * ─── CITATIONS OF DOCUMENTS OUTSIDE THE REPOSITORY ───────────────────────────────────────────────
 * src/ cites the product rules in docs/product, never the specification, decision list, security
 * checklist or issues that a clone of the repository does not have. Migrations are applied
 * history and keep their words.
 */
describe("citations of documents outside the repository (none left in src/)", () => {
  it("src/ cites no section of the spec or of decisions.md, no checklist row and no numbered issue", () => {
    // The section sign is written \u00a7 so that this file does not match itself.
    const outside = new RegExp(
      [
        "spec \\u00a7",
        "decisions(?:\\.md)? \\u00a7",
        "security-checklist",
        "checklist [PSID]\\d",
        "\\b[Ii]ssues? \\d",
      ].join("|"),
    );
    const left: string[] = [];
    for (const { file, text } of sources) {
      if (!file.startsWith(`src${path.sep}`) || file.includes(`${path.sep}migrations${path.sep}`)) continue;
      text.split("\n").forEach((line, index) => {
        if (outside.test(line)) left.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(left, `${left.length} citations of documents outside the repository:\n${left.join("\n")}`).toEqual(
      [],
    );
  });
});
