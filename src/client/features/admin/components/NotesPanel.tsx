import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminNoteDto } from "../../../../shared/admin";
import {
  createNoteContract,
  deleteNoteContract,
  listNotesContract,
  updateNoteContract,
} from "../../../../shared/api/admin-applications";
import { pathOf } from "../../../../shared/api/contract";
import { NOTE_MAX_LENGTH, noteBodySchema } from "../../../../shared/schemas/admin";
import { Button } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { api } from "../../../lib/api";
import { call } from "../../../lib/call";
import type { AdminUser } from "../../../lib/session";
import { adminKeys, canEditNote, canWriteNotes } from "../permissions";
import { ConfirmDialog } from "./ConfirmDialog";
import { useDateTime } from "./common";

/** Checks a note's text with the shared schema; the translated message, or null when valid. */
function useNoteCheck() {
  const { t } = useTranslation("admin");
  return (body: string): string | null => {
    const result = noteBodySchema.safeParse({ body });
    if (result.success) return null;
    const key = result.error.issues[0]?.message ?? "validation.required";
    return t(`common:${key}`);
  };
}

/** A textarea with its label, length and error, for a new note or an edit. */
function NoteEditor({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
}) {
  const { t } = useTranslation("admin");
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={4}
        maxLength={NOTE_MAX_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ""}`}
        className={inputClass}
      />
      <p id={`${id}-count`} className="mt-1 text-xs text-slate-700">
        {t("notes.count", { length: value.length, max: NOTE_MAX_LENGTH })}
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** One note: author, dates, text; Edit and Delete for its author (or an owner). */
function NoteItem({
  note,
  admin,
  applicantId,
}: {
  note: AdminNoteDto;
  admin: AdminUser;
  applicantId: string;
}) {
  const { t } = useTranslation("admin");
  const { dateTime } = useDateTime();
  const check = useNoteCheck();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(note.body);
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const key = adminKeys.notes(applicantId);

  const save = useMutation({
    mutationFn: (body: string) => call(updateNoteContract, { params: { id: note.id }, body: { body } }),
    onSuccess: (updated) => {
      queryClient.setQueryData<AdminNoteDto[]>(key, (notes) =>
        notes?.map((n) => (n.id === updated.id ? updated : n)),
      );
      setEditing(false);
      toast({ title: t("notes.savedTitle"), variant: "success" });
    },
    onError: (err) =>
      toast({ title: t("notes.failedTitle"), description: err.message, variant: "destructive" }),
  });
  const remove = useMutation({
    mutationFn: () => api(pathOf(deleteNoteContract, { id: note.id }), { method: deleteNoteContract.method }),
    onSuccess: () => {
      queryClient.setQueryData<AdminNoteDto[]>(key, (notes) => notes?.filter((n) => n.id !== note.id));
      setConfirmDelete(false);
      toast({ title: t("notes.deletedTitle"), variant: "success" });
    },
    onError: (err) => {
      setConfirmDelete(false);
      toast({ title: t("notes.failedTitle"), description: err.message, variant: "destructive" });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = check(text);
    setError(problem);
    if (!problem) save.mutate(text);
  };
  const editable = canEditNote(admin, note.author.id);
  const edited = note.updatedAt !== note.createdAt;

  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="font-semibold text-slate-900">
          {note.author.name || note.author.email}
          {note.author.id === admin.id ? (
            <span className="font-normal text-slate-700"> ({t("notes.you")})</span>
          ) : null}
        </p>
        <p className="text-sm text-slate-700">
          <time dateTime={note.createdAt}>{dateTime(note.createdAt)}</time>
          {edited ? ` · ${t("notes.edited", { date: dateTime(note.updatedAt) })}` : null}
        </p>
      </div>
      {editing ? (
        <form onSubmit={submit} className="mt-3 space-y-3" noValidate>
          <NoteEditor
            id={`note-edit-${note.id}`}
            label={t("notes.editLabel")}
            value={text}
            onChange={setText}
            error={error}
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={save.isPending}>
              {t("notes.save")}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setEditing(false);
                setText(note.body);
                setError(null);
              }}
            >
              {t("confirm.cancel")}
            </Button>
          </div>
        </form>
      ) : (
        <>
          <p className="mt-2 break-words whitespace-pre-wrap text-slate-800">{note.body}</p>
          {editable ? (
            <div className="mt-3 flex gap-2">
              <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" className="h-4 w-4" />
                {t("notes.edit")}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(true)}>
                <Trash2 aria-hidden="true" className="h-4 w-4" />
                {t("notes.delete")}
              </Button>
            </div>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("notes.deleteTitle")}
        description={<p>{t("notes.deleteBody")}</p>}
        confirmLabel={t("notes.delete")}
        danger
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}

/** Notes of the admissions team on an applicant: the list, then a form to add one. */
export function NotesPanel({ applicantId, admin }: { applicantId: string; admin: AdminUser }) {
  const { t } = useTranslation("admin");
  const check = useNoteCheck();
  const queryClient = useQueryClient();
  const key = adminKeys.notes(applicantId);
  const notes = useQuery({
    queryKey: key,
    queryFn: () => call(listNotesContract, { params: { id: applicantId } }),
  });
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (body: string) => call(createNoteContract, { params: { id: applicantId }, body: { body } }),
    onSuccess: (note) => {
      queryClient.setQueryData<AdminNoteDto[]>(key, (list) => [...(list ?? []), note]);
      setText("");
      toast({ title: t("notes.addedTitle"), variant: "success" });
    },
    onError: (err) =>
      toast({ title: t("notes.failedTitle"), description: err.message, variant: "destructive" }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = check(text);
    setError(problem);
    if (!problem) add.mutate(text);
  };

  return (
    <div>
      {notes.isPending ? (
        <Spinner className="py-6" />
      ) : notes.isError ? (
        <p className="text-red-700">{notes.error.message}</p>
      ) : notes.data.length === 0 ? (
        <p className="text-slate-700">{t("notes.empty")}</p>
      ) : (
        <ul className="space-y-3">
          {notes.data.map((note) => (
            <NoteItem key={note.id} note={note} admin={admin} applicantId={applicantId} />
          ))}
        </ul>
      )}
      {canWriteNotes(admin) ? (
        <form onSubmit={submit} className="mt-5 space-y-3" noValidate>
          <NoteEditor
            id="note-new"
            label={t("notes.addLabel")}
            value={text}
            onChange={setText}
            error={error}
          />
          <Button type="submit" size="sm" disabled={add.isPending}>
            {t("notes.add")}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
