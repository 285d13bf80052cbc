#!/usr/bin/env node
/**
 * Runs the test suite as timed phases and prints each phase's time when it ends (docs/decisions/032-test-suite-time.md).
 *
 *   node scripts/phases.mjs test                 typecheck, lint, build, unit, browser (what `npm test` runs)
 *   node scripts/phases.mjs run NAME -- CMD ...  one phase: runs CMD, prints and records its time
 *   node scripts/phases.mjs summary              every phase recorded in this run, with the README's times
 *
 * Times are recorded in the file named by PHASE_TIMES_FILE (set by .ci/run for the whole CI run), so
 * the summary at the end of CI lists install, typecheck, lint, unit, build, browser and PostgreSQL.
 * A phase that takes more than 20 % (and at least 15 s) longer than the README's "Phase times" table prints a warning:
 * the suite is growing towards CI's limit, and the README's table should be brought up to date.
 * Plain Node without dependencies, so .ci/run can time the install before `npm ci`.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const GROWTH_WARNING = 1.2;
/** Below this many seconds of growth a phase is within the machine's noise (npm ci: 19-28 s). */
const GROWTH_FLOOR_SECONDS = 15;

/** The phases of `npm test`, in order. */
const TEST_PHASES = [
  ["typecheck", ["npm", "run", "--silent", "typecheck"]],
  ["lint", ["npm", "run", "--silent", "lint"]],
  // One build, before the tests that read it: the unit phase's page and log tests and the browser stories.
  ["build", ["npm", "run", "--silent", "build"]],
  ["unit", ["npm", "run", "--silent", "test:unit"]],
  ["browser", ["npx", "playwright", "test"]],
];

/**
 * The README's recorded time of each phase in seconds, read from the table between the
 * `<!-- phase-times -->` markers (rows `| phase | 123 s | … |`).
 */
export function recordedTimes(readme = readFileSync(path.join(ROOT, "README.md"), "utf8")) {
  const times = new Map();
  const section = readme.split("<!-- phase-times -->")[1] ?? "";
  for (const [, name, seconds] of section.matchAll(/^\|\s*`?([a-zA-Z-]+)`?\s*\|\s*(\d+)\s*s\s*\|/gm))
    times.set(name, Number(seconds));
  return times;
}

function format(seconds) {
  return seconds >= 60 ? `${seconds} s (${Math.floor(seconds / 60)} min ${seconds % 60} s)` : `${seconds} s`;
}

/** The line printed when a phase ends, with a warning when it grew by more than 20 %. */
export function phaseLine(name, seconds, ok, recorded = recordedTimes()) {
  const before = recorded.get(name);
  const lines = [
    `phase ${name}: ${format(seconds)}${ok ? "" : " (failed)"}${before ? `; README: ${before} s` : ""}`,
  ];
  if (before && seconds > before * GROWTH_WARNING && seconds - before >= GROWTH_FLOOR_SECONDS)
    lines.push(
      `WARNING: phase ${name} took ${seconds} s, ${Math.round((seconds / before - 1) * 100)} % more than the ${before} s in the README's phase times: ` +
        "make it faster or record the new time (issue 21; CI stops at 90 minutes).",
    );
  return lines.join("\n");
}

function runPhase(name, command) {
  const started = Date.now();
  const result = spawnSync(command[0], command.slice(1), { cwd: ROOT, stdio: "inherit", env: process.env });
  const seconds = Math.round((Date.now() - started) / 1000);
  const ok = result.status === 0;
  console.log(`\n${phaseLine(name, seconds, ok)}\n`);
  if (process.env.PHASE_TIMES_FILE)
    appendFileSync(process.env.PHASE_TIMES_FILE, `${name}\t${seconds}\t${ok ? "ok" : "failed"}\n`);
  return result.status ?? 1;
}

function summary() {
  const file = process.env.PHASE_TIMES_FILE;
  if (!file || !existsSync(file)) return 0;
  const recorded = recordedTimes();
  const rows = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"));
  let total = 0;
  console.log("\nPhase times:");
  for (const [name, seconds, status] of rows) {
    total += Number(seconds);
    const before = recorded.get(name);
    console.log(
      `  ${name.padEnd(10)} ${String(seconds).padStart(5)} s${before ? `   (README ${before} s)` : ""}${status === "ok" ? "" : "   failed"}`,
    );
  }
  console.log(
    `  ${"total".padEnd(10)} ${String(total).padStart(5)} s (${Math.floor(total / 60)} min ${total % 60} s)`,
  );
  return 0;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [verb, ...rest] = process.argv.slice(2);
  if (verb === "test") {
    // Alone (`npm test`), the phases are summed up at the end; under .ci/run, at the end of CI.
    const own = !process.env.PHASE_TIMES_FILE;
    if (own)
      process.env.PHASE_TIMES_FILE = path.join(mkdtempSync(path.join(tmpdir(), "hss-phases-")), "times.tsv");
    let status = 0;
    for (const [name, command] of TEST_PHASES) {
      status = runPhase(name, command);
      if (status !== 0) break;
    }
    if (own) summary();
    process.exit(status);
  } else if (verb === "run") {
    const dash = rest.indexOf("--");
    if (dash !== 1 || rest.length < 3) {
      console.error("usage: node scripts/phases.mjs run NAME -- COMMAND [ARGS...]");
      process.exit(2);
    }
    process.exit(runPhase(rest[0], rest.slice(2)));
  } else if (verb === "summary") {
    process.exit(summary());
  } else {
    console.error("usage: node scripts/phases.mjs test | run NAME -- COMMAND ... | summary");
    process.exit(2);
  }
}
