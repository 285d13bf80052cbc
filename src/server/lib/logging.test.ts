/**
 * Unit tests of what the server's logger writes (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs: no personal data in logs): errors
 * without statement parameters, SQL text or PostgreSQL's detail; personal keys censored at any
 * depth; URLs without query values. The API-level sweep is in `src/server/d2-logs.test.ts`.
 */
import { DrizzleQueryError } from "drizzle-orm/errors";
import { DatabaseError } from "pg";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions, REDACTED, redactPersonal, safeUrl, serializeError } from "./logging";

const PERSONAL = ["amara.okafor@example.com", "A12345678", "2001-05-14", "Okafor", "12 Marina Road"];

/** PostgreSQL's answer to a second account with the same e-mail address, as `pg` gives it. */
function uniqueViolation() {
  const error = new DatabaseError(
    'duplicate key value violates unique constraint "students_email_key"',
    180,
    "error",
  );
  Object.assign(error, {
    severity: "ERROR",
    code: "23505",
    detail: "Key (email)=(amara.okafor@example.com) already exists.",
    schema: "public",
    table: "students",
    constraint: "students_email_key",
    where: "SQL statement \"insert into students values ('Okafor')\"",
    routine: "_bt_check_unique",
  });
  return error;
}

/** Drizzle's wrapper of a failed insert: the SQL and every parameter in its message. */
function failedInsert(cause: Error) {
  return new DrizzleQueryError(
    'insert into "applicants" ("first_name", "last_name", "email", "passport_number", "date_of_birth") values ($1, $2, $3, $4, $5)',
    ["Amara", "Okafor", "amara.okafor@example.com", "A12345678", "2001-05-14"],
    cause,
  );
}

/** A logger with the server's options writing into an array. */
function capture() {
  const lines: string[] = [];
  const log = pino(loggerOptions("debug"), { write: (line: string) => void lines.push(line) });
  return {
    log,
    text: () => lines.join(""),
    last: () => JSON.parse(lines.at(-1)!) as Record<string, unknown>,
  };
}

describe("D2 logs: errors", () => {
  it("a failed statement keeps its SQLSTATE, constraint and table, and loses its SQL text, parameters and detail", () => {
    const logged = JSON.stringify(serializeError(failedInsert(uniqueViolation())));
    for (const value of PERSONAL) expect(logged).not.toContain(value);
    expect(logged).not.toMatch(/params|detail|where|values \(|\$1/);
    expect(serializeError(failedInsert(uniqueViolation()))).toMatchObject({
      type: "DrizzleQueryError",
      message: 'Failed query: insert into "applicants"',
      statement: 'insert into "applicants"',
      cause: {
        code: "23505",
        constraint: "students_email_key",
        table: "students",
        message: 'duplicate key value violates unique constraint "students_email_key"',
      },
    });
  });

  it("a database message keeps the names PostgreSQL quotes and loses the values it quotes", () => {
    const invalid = Object.assign(
      new DatabaseError('invalid input syntax for type uuid: "A12345678"', 100, "error"),
      {
        severity: "ERROR",
        code: "22P02",
      },
    );
    expect(serializeError(invalid)).toMatchObject({
      code: "22P02",
      message: 'invalid input syntax for type uuid: "…"',
    });
    const nul = Object.assign(
      new DatabaseError('invalid byte sequence for encoding "UTF8": 0x00', 100, "error"),
      {
        severity: "ERROR",
        code: "22021",
      },
    );
    expect(serializeError(nul)).toMatchObject({ message: 'invalid byte sequence for encoding "UTF8": 0x00' });
  });

  it("any error loses the e-mail addresses in its message and stack, and the fields outside the whitelist", () => {
    const error = Object.assign(new Error("550 mailbox unavailable: amara.okafor@example.com"), {
      code: "EENVELOPE",
      response: "550 <amara.okafor@example.com>",
      extra: { current: { email: "amara.okafor@example.com" } },
    });
    const logged = serializeError(error);
    expect(JSON.stringify(logged)).not.toContain("amara.okafor@example.com");
    expect(logged).toMatchObject({
      type: "Error",
      code: "EENVELOPE",
      message: `550 mailbox unavailable: ${REDACTED}`,
    });
    expect((logged as { stack: string }).stack).toMatch(
      /^Error: 550 mailbox unavailable: \[redacted\]\n\s+at /,
    );
  });

  it("through the logger: an error logged with a message, or alone (pino then takes its message), shows no value", () => {
    const { log, text } = capture();
    log.warn({ err: failedInsert(uniqueViolation()) }, "database refused the input");
    log.error(failedInsert(uniqueViolation()));
    log.error(uniqueViolation());
    for (const value of PERSONAL) expect(text()).not.toContain(value);
    expect(text()).not.toMatch(/params|detail|\$1/);
    expect(text()).toContain('"msg":"Failed query: insert into \\"applicants\\""');
  });
});

describe("D2 logs: personal keys and headers", () => {
  it("censors personal keys at any depth and in any spelling, and leaves the caller's object as it was", () => {
    const { log, last } = capture();
    const applicant = {
      id: "6b1f…",
      firstName: "Amara",
      contact: { email: "amara.okafor@example.com", phone_number: "+234 801" },
      documents: [{ passportNumber: "A12345678", "date-of-birth": "2001-05-14" }],
    };
    log.info({ applicant, headers: { cookie: "sid_admin=secret", "stripe-signature": "t=1,v1=abc" } }, "x");
    expect(last()).toMatchObject({
      applicant: {
        id: "6b1f…",
        firstName: REDACTED,
        contact: { email: REDACTED, phone_number: REDACTED },
        documents: [{ passportNumber: REDACTED, "date-of-birth": REDACTED }],
      },
      headers: { cookie: REDACTED, "stripe-signature": REDACTED },
    });
    expect(applicant.contact.email).toBe("amara.okafor@example.com");
  });

  it("leaves the flat access line as it is, without copying it", () => {
    const line = {
      method: "GET",
      url: "/en",
      statusCode: 200,
      remoteAddress: "203.0.113.9",
      responseTime: 0.4,
    };
    expect(redactPersonal(line)).toBe(line);
  });
});

describe("D2 logs: URLs", () => {
  it.each([
    ["/student/verify-email?token=Zx9_abc", "/student/verify-email?token=[redacted]"],
    ["/admin/accept-invite?token=Zx9_abc&lang=fr", "/admin/accept-invite?token=[redacted]&lang=fr"],
    ["/test-payment?session_id=cs_offline_123", "/test-payment?session_id=[redacted]"],
    [
      "/api/admin/applications?q=amara%40example.com&page=2&sort=lastName:asc",
      "/api/admin/applications?q=[redacted]&page=2&sort=lastName:asc",
    ],
    ["/api/admin/students?page=%00A12345678", "/api/admin/students?page=[redacted]"],
    ["/x?amara@example.com", "/x?[redacted]"],
    ["/en/programmes", "/en/programmes"],
  ])("%s is logged as %s", (url, logged) => {
    expect(safeUrl(url)).toBe(logged);
  });

  it.each([
    [
      "/api/student-pass/Zx9_abcdefghijklmnopqrstuvwxyz0123456789ABCDE",
      "/api/student-pass/:token",
      "/api/student-pass/[redacted]",
    ],
    [
      "/fr/student-pass/Zx9_abc?utm=x",
      "/fr/student-pass/:token",
      "/fr/student-pass/[redacted]?utm=[redacted]",
    ],
    [
      "/api/admin/applications/2ca45754-b877-48c1-867b-53dd5f566a5c/notes",
      "/api/admin/applications/:id/notes",
      "/api/admin/applications/2ca45754-b877-48c1-867b-53dd5f566a5c/notes",
    ],
    ["/en/partner/LINDA2027", "/en/partner/:code?", "/en/partner/[redacted]"],
    ["/zh/anything/Zx9_abc/more", "/zh/*", "/zh/[redacted]/[redacted]/[redacted]"],
    ["/en/", "/en", "/en/"],
    ["/en/program", "/en/program", "/en/program"],
    ["/en/program/x", "/en/program", "/en/program/[redacted]"],
    ["/en/*", "/en/*", "/en/[redacted]"],
    ["/api/:id", "/api/:id", "/api/[redacted]"],
  ])("%s of the route %s is logged as %s (docs/product/privacy.md#logs)", (url, pattern, logged) => {
    expect(safeUrl(url, pattern)).toBe(logged);
  });
});
