import { asc, eq } from "drizzle-orm";
import type { AdminNoteDto } from "../../../shared/admin";
import type { Db, Tx } from "../../db/client";
import { admins, applicantNotes } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, HttpError } from "../../lib/errors";
import { findApplicant } from "./applications.detail";

const noteColumns = {
  note: applicantNotes,
  authorName: admins.name,
  authorEmail: admins.email,
};

type NoteRow = { note: typeof applicantNotes.$inferSelect; authorName: string; authorEmail: string };

const noteDto = ({ note, authorName, authorEmail }: NoteRow): AdminNoteDto => ({
  id: note.id,
  applicantId: note.applicantId,
  body: note.body,
  author: { id: note.authorAdminId, name: authorName, email: authorEmail },
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
});

async function readNote(tx: Tx, id: string): Promise<NoteRow> {
  const [row] = await tx
    .select(noteColumns)
    .from(applicantNotes)
    .innerJoin(admins, eq(admins.id, applicantNotes.authorAdminId))
    .where(eq(applicantNotes.id, id));
  if (!row) throw adminNotFound();
  return row;
}

/** `GET /api/admin/applicants/:id/notes`: the applicant's notes, oldest first. 404 for an unknown applicant. */
export async function listNotes(tx: Tx, applicantId: string): Promise<AdminNoteDto[]> {
  await findApplicant(tx, applicantId);
  const rows = await tx
    .select(noteColumns)
    .from(applicantNotes)
    .innerJoin(admins, eq(admins.id, applicantNotes.authorAdminId))
    .where(eq(applicantNotes.applicantId, applicantId))
    .orderBy(asc(applicantNotes.createdAt), asc(applicantNotes.id));
  return rows.map(noteDto);
}

/** `POST /api/admin/applicants/:id/notes`: adds a note by `admin` (audit "note.create"). */
export async function createNote(db: Db, admin: AdminUser, applicantId: string, body: string, now: Date) {
  return db.transaction(async (tx) => {
    await findApplicant(tx, applicantId);
    const [note] = await tx
      .insert(applicantNotes)
      .values({ applicantId, authorAdminId: admin.id, body, createdAt: now, updatedAt: now })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "note.create",
      entityType: "note",
      entityId: note!.id,
      after: { applicantId, body },
    });
    return noteDto({ note: note!, authorName: admin.name, authorEmail: admin.email });
  });
}

/** Only the author or an owner edits or deletes a note (contract); others get 403. */
function assertMayEdit(admin: AdminUser, row: NoteRow) {
  if (row.note.authorAdminId !== admin.id && admin.role !== "owner") {
    throw new HttpError(403, "errors.forbiddenRole");
  }
}

/** `PATCH /api/admin/notes/:id`: new body (author or owner; audit "note.update" before → after). */
export async function updateNote(db: Db, admin: AdminUser, id: string, body: string, now: Date) {
  return db.transaction(async (tx) => {
    const row = await readNote(tx, id);
    assertMayEdit(admin, row);
    const [note] = await tx
      .update(applicantNotes)
      .set({ body, updatedAt: now })
      .where(eq(applicantNotes.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "note.update",
      entityType: "note",
      entityId: id,
      before: { applicantId: row.note.applicantId, body: row.note.body },
      after: { applicantId: row.note.applicantId, body },
    });
    return noteDto({ ...row, note: note! });
  });
}

/** `DELETE /api/admin/notes/:id` (author or owner; audit "note.delete" keeps the deleted body). */
export async function deleteNote(db: Db, admin: AdminUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await readNote(tx, id);
    assertMayEdit(admin, row);
    await tx.delete(applicantNotes).where(eq(applicantNotes.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: "note.delete",
      entityType: "note",
      entityId: id,
      before: { applicantId: row.note.applicantId, body: row.note.body },
    });
  });
}
