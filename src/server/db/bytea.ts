import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * `bytea` values sent and read as base64 text, converted by the database. PGlite turns a bytea
 * parameter into and out of hex in JavaScript, four to five times slower than base64 (about 100 ms
 * per 256 KB, on the event loop); on PostgreSQL base64 costs about as much as pg's binary
 * parameters. Used for the files' chunks and the e-mails' attachments.
 */

/** The value to insert into a `bytea` column: `decode(<base64>, 'base64')`. */
export const byteaValue = (data: Buffer): SQL => sql`decode(${data.toString("base64")}, 'base64')`;

/** A `bytea` column selected as base64 text; `Buffer.from(value, "base64")` gives the bytes back. */
export const byteaAsBase64 = (column: AnyColumn): SQL<string> => sql<string>`encode(${column}, 'base64')`;
