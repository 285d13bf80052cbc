import { zodResolver } from "@hookform/resolvers/zod";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Mail, UserCheck, UserX } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  exportAdminsContract,
  inviteAdminContract,
  listAdminsContract,
  updateAdminContract,
} from "../../../../shared/api/auth";
import { urlOf } from "../../../../shared/api/contract";
import { ADMIN_ROLES, type AdminRoleName, adminInviteSchema } from "../../../../shared/schemas/accounts";
import { ADMIN_STATUSES, TEAM_SORT_KEYS } from "../../../../shared/schemas/students-admin";
import type { AdminTeamMember } from "../../../../shared/students-admin";
import { applyServerErrors, TextField } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useSignedInUser } from "../../../lib/session";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import {
  ClearFiltersButton,
  CsvLink,
  FilterPanel,
  FilterSelect,
  PageSizeSelect,
  SearchForm,
  SortHeader,
  useListParams,
} from "../components/list";
import { Pill, useFieldError } from "../components/people/list";
import { peopleKeys } from "../components/people/permissions";

type InviteFormValues = { email: string; name: string; role: AdminRoleName };

/** A pending confirmation: a role change, or disabling / enabling an admin. */
type Pending =
  | { kind: "role"; member: AdminTeamMember; role: AdminRoleName }
  | { kind: "disable" | "enable"; member: AdminTeamMember };

const STATUS_TONE = { invited: "info", active: "good", disabled: "bad" } as const;

/** Filters kept in the address (the list and the CSV export take the same ones). */
const FILTER_KEYS = ["q", "role", "status"] as const;

/** The invitation form: e-mail, name, role (react-hook-form with the shared schema). */
function InviteForm() {
  const { t } = useTranslation("adminPeople");
  const { t: tAdmin } = useTranslation("admin");
  const message = useFieldError();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, setError, reset } = useForm<InviteFormValues>({
    resolver: zodResolver(adminInviteSchema),
    defaultValues: { email: "", name: "", role: "admissions" },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const invite = useMutation({
    mutationFn: (values: InviteFormValues) =>
      call(inviteAdminContract, { body: adminInviteSchema.parse(values) }),
    onSuccess: (member) => {
      void queryClient.invalidateQueries({ queryKey: peopleKeys.team() });
      reset();
      toast({
        title: t("team.invitedTitle"),
        description: t("team.invited", { email: member.email }),
        variant: "success",
      });
    },
    onError: (error) => {
      applyServerErrors(error, setError);
      toast({ title: t("common.failedTitle"), description: error.message, variant: "destructive" });
    },
  });
  return (
    <form onSubmit={handleSubmit((values) => invite.mutate(values))} noValidate className="space-y-4">
      <TextField
        id="invite-email"
        type="email"
        label={t("team.email")}
        autoComplete="off"
        error={message(errors.email)}
        {...register("email")}
      />
      <TextField
        id="invite-name"
        label={t("team.name")}
        autoComplete="off"
        error={message(errors.name)}
        {...register("name")}
      />
      <Field id="invite-role" label={t("team.role")} required error={message(errors.role)}>
        <select
          id="invite-role"
          className={inputClass}
          aria-invalid={errors.role ? true : undefined}
          aria-describedby={describedBy("invite-role", undefined, errors.role)}
          {...register("role")}
        >
          {ADMIN_ROLES.map((role) => (
            <option key={role} value={role}>
              {tAdmin(`roles.${role}`)}
            </option>
          ))}
        </select>
      </Field>
      <Button type="submit" disabled={invite.isPending}>
        <Mail aria-hidden="true" className="h-4 w-4" />
        {invite.isPending ? t("team.inviting") : t("team.invite")}
      </Button>
    </form>
  );
}

/**
 * /admin/team (owners: admins:write): the admins with role and status, with server-side search
 * (name, e-mail), filters (role, status), sort and pages, all kept in the address; "Export CSV"
 * downloads the same selection. Owners invite admins (e-mail, name, role), send a pending
 * invitation again, change roles and disable or enable admins, each change confirmed in a dialog. Owners cannot change their own role or disable themselves (the
 * server refuses it too, 400), so the back office always keeps an owner.
 */
export default function AdminTeamPage() {
  const { t } = useTranslation("adminPeople");
  const { t: tAdmin } = useTranslation("admin");
  const me = useSignedInUser("admin");
  const { date } = useDateTime();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useListParams({
    filterKeys: FILTER_KEYS,
    sort: {
      keys: TEAM_SORT_KEYS,
      default: { key: "role", direction: "asc" },
      ascendingFirst: ["email", "name", "role", "status"],
    },
  });
  const team = useQuery({
    queryKey: [...peopleKeys.team(), list.search],
    queryFn: ({ signal }) =>
      call(listAdminsContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });
  const update = useMutation({
    mutationFn: (change: Pending) =>
      call(updateAdminContract, {
        params: { id: change.member.id },
        body: change.kind === "role" ? { role: change.role } : { disabled: change.kind === "disable" },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: peopleKeys.team() });
      setPending(null);
      toast({ title: t("team.updatedTitle"), variant: "success" });
    },
    onError: (error) => {
      setPending(null);
      toast({ title: t("common.failedTitle"), description: error.message, variant: "destructive" });
    },
  });
  const resend = useMutation({
    mutationFn: (member: AdminTeamMember) =>
      call(inviteAdminContract, {
        body: { email: member.email, name: member.name || member.email, role: member.role },
      }),
    onSuccess: (member) =>
      toast({
        title: t("team.resentTitle"),
        description: t("team.invited", { email: member.email }),
        variant: "success",
      }),
    onError: (error) =>
      toast({ title: t("common.failedTitle"), description: error.message, variant: "destructive" }),
  });

  const nameOf = (member: AdminTeamMember) => member.name || member.email;
  let dialog: { title: string; body: string; confirm: string; danger: boolean } | null = null;
  if (pending?.kind === "role")
    dialog = {
      title: t("team.roleTitle", { name: nameOf(pending.member) }),
      body: t("team.roleBody", {
        from: tAdmin(`roles.${pending.member.role}`),
        to: tAdmin(`roles.${pending.role}`),
      }),
      confirm: t("team.roleConfirm"),
      danger: false,
    };
  else if (pending)
    dialog = {
      title: t(pending.kind === "disable" ? "team.disableTitle" : "team.enableTitle", {
        name: nameOf(pending.member),
      }),
      body: t(pending.kind === "disable" ? "team.disableBody" : "team.enableBody"),
      confirm: t(pending.kind === "disable" ? "team.disable" : "team.enable"),
      danger: pending.kind === "disable",
    };

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("team.title")}
        lead={t("team.lead")}
        actions={
          <CsvLink href={list.csvHref(urlOf(exportAdminsContract))}>{t("admin:list.exportCsv")}</CsvLink>
        }
      />
      <FilterPanel id="team-filters-heading" title={t("team.filtersTitle")}>
        <SearchForm
          id="team-q"
          label={t("team.search")}
          placeholder={t("team.searchPlaceholder")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <FilterSelect
            id="team-role"
            label={t("team.role")}
            {...list.filterProps("role")}
            options={ADMIN_ROLES.map((role) => ({ value: role, label: tAdmin(`roles.${role}`) }))}
            allLabel={t("team.all")}
          />
          <FilterSelect
            id="team-status"
            label={t("team.columns.status")}
            {...list.filterProps("status")}
            options={ADMIN_STATUSES.map((status) => ({ value: status, label: t(`team.status.${status}`) }))}
            allLabel={t("team.all")}
          />
        </div>
        {list.hasFilters ? (
          <ClearFiltersButton onClick={list.clearFilters}>{t("admin:list.clearFilters")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>
      <div className="mt-6 space-y-6">
        <section aria-labelledby="team-heading">
          <h2 id="team-heading" className="mb-2 text-lg font-bold text-brand-900">
            {t("team.listTitle")}
          </h2>
          <p className="mb-3 text-sm text-slate-700">{t("team.ownAccount")}</p>
          <AdminListFrame
            list={team}
            empty={list.hasFilters ? t("team.emptyFiltered") : t("team.empty")}
            caption={t("team.caption")}
            captionId="team-caption"
            minWidth="min-w-[52rem]"
            paginationLabel={t("team.pagination")}
            pageLink={list.pageLink}
            head={
              <>
                <SortHeader column="name" list={list}>
                  {t("team.columns.name")}
                </SortHeader>
                <SortHeader column="email" list={list}>
                  {t("team.columns.email")}
                </SortHeader>
                <SortHeader column="role" list={list}>
                  {t("team.columns.role")}
                </SortHeader>
                <SortHeader column="status" list={list}>
                  {t("team.columns.status")}
                </SortHeader>
                <SortHeader column="createdAt" list={list}>
                  {t("team.columns.createdAt")}
                </SortHeader>
                <HeaderCell>{t("team.columns.actions")}</HeaderCell>
              </>
            }
            row={(member) => {
              const self = member.id === me.id;
              return (
                <tr key={member.id} className="align-top">
                  <td className="min-w-40 px-3 py-3">
                    <div className="font-semibold text-slate-900">
                      {member.name || "—"}
                      {self ? <span className="font-normal text-slate-700"> ({t("team.you")})</span> : null}
                    </div>
                  </td>
                  <td className="min-w-48 px-3 py-3 text-slate-700 wrap-anywhere">{member.email}</td>
                  <td className="px-3 py-3">
                    <label htmlFor={`role-${member.id}`} className="sr-only">
                      {t("team.changeRole", { name: nameOf(member) })}
                    </label>
                    <select
                      id={`role-${member.id}`}
                      value={member.role}
                      disabled={self || update.isPending}
                      onChange={(event) =>
                        setPending({
                          kind: "role",
                          member,
                          role: event.target.value as AdminRoleName,
                        })
                      }
                      className="rounded-lg border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 disabled:bg-slate-100"
                    >
                      {ADMIN_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {tAdmin(`roles.${role}`)}
                        </option>
                      ))}
                    </select>
                    <p className="mt-1 max-w-56 text-xs text-slate-700">
                      {t(`team.roleHelp.${member.role}`)}
                    </p>
                  </td>
                  <td className="px-3 py-3">
                    <Pill tone={STATUS_TONE[member.status]}>{t(`team.status.${member.status}`)}</Pill>
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap text-slate-800">{date(member.createdAt)}</td>
                  <td className="px-3 py-3">
                    {self ? null : (
                      <div className="flex flex-wrap gap-2">
                        {member.status === "invited" ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            disabled={resend.isPending}
                            onClick={() => resend.mutate(member)}
                            aria-label={`${t("team.resend")}: ${nameOf(member)}`}
                          >
                            <Mail aria-hidden="true" className="h-4 w-4" />
                            {t("team.resend")}
                          </Button>
                        ) : null}
                        {member.status === "disabled" ? (
                          <Button
                            size="sm"
                            variant="secondary"
                            onClick={() => setPending({ kind: "enable", member })}
                            aria-label={`${t("team.enable")}: ${nameOf(member)}`}
                          >
                            <UserCheck aria-hidden="true" className="h-4 w-4" />
                            {t("team.enable")}
                          </Button>
                        ) : (
                          <Button
                            size="sm"
                            variant="ghost"
                            onClick={() => setPending({ kind: "disable", member })}
                            aria-label={`${t("team.disable")}: ${nameOf(member)}`}
                          >
                            <UserX aria-hidden="true" className="h-4 w-4" />
                            {t("team.disable")}
                          </Button>
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              );
            }}
            tools={<PageSizeSelect id="team-page-size" list={list} />}
          />
        </section>
        <Panel title={t("team.inviteTitle")} id="invite-heading" className="max-w-2xl">
          <p className="mb-4 text-slate-700">{t("team.inviteLead")}</p>
          <InviteForm />
        </Panel>
      </div>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={dialog?.title ?? ""}
        description={<p>{dialog?.body}</p>}
        confirmLabel={dialog?.confirm ?? ""}
        danger={dialog?.danger}
        busy={update.isPending}
        onConfirm={() => (pending ? update.mutate(pending) : undefined)}
      />
    </div>
  );
}
