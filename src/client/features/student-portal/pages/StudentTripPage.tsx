import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BedDouble, Car, Download, Phone, PlaneLanding, ShieldCheck } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useId } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import {
  getStudentTripContract,
  saveEmergencyContactContract,
  uploadInsuranceContract,
} from "../../../../shared/api/cohort";
import {
  type EmergencyContact,
  emergencyContactSchema,
  type TripDto,
} from "../../../../shared/schemas/cohort";
import { telHref } from "../../../../shared/site";
import { applyServerErrors, TextField, useFieldMessage } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { DocumentFileInput } from "../../../components/ui/DocumentFileInput";
import { Card } from "../../../components/ui/Layout";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { INSURANCE_FILE, useDocumentFile } from "../../../lib/document-file";
import { useFileSize } from "../../../lib/file-size";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";
import { CohortPage, cohortKeys, NoCohort, QueryState } from "../components/CohortPage";
import { VisaLetterCard } from "../components/VisaLetterCard";

/**
 * A titled card of the trip page with its icon; `anchor` is the section's id, the target of the
 * dashboard's next steps (server: modules/portal/next-steps.ts `nextStepHref`).
 */
function TripCard({
  icon,
  title,
  anchor,
  children,
}: {
  icon: ReactNode;
  title: string;
  anchor?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} id={anchor} className="scroll-mt-4">
      <Card className="h-full">
        <h3 id={id} className="flex items-center gap-2 text-lg font-bold text-brand-900">
          {icon}
          {title}
        </h3>
        <div className="mt-3 space-y-2 text-slate-800">{children}</div>
      </Card>
    </section>
  );
}

/** A label and its value, one under the other. */
function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="font-medium text-slate-900 whitespace-pre-line">{children}</dd>
    </div>
  );
}

/**
 * Travel and health insurance (docs/product/admissions.md#insurance-proof: mandatory): whether proof is required by the school, the
 * proof on file with a download link, and the upload (PDF, JPG or PNG up to 5 MB; the server
 * checks the content and encrypts the file like a passport).
 */
function InsuranceCard({ trip }: { trip: TripDto }) {
  const { t } = useTranslation("cohort");
  const format = useFormat();
  const size = useFileSize();
  const queryClient = useQueryClient();
  const proofFile = useDocumentFile(INSURANCE_FILE);
  const id = `insurance-${trip.applicationId}`;
  const upload = useMutation({
    mutationFn: (file: File) =>
      call(uploadInsuranceContract, { params: { id: trip.applicationId }, body: proofFile.formData(file) }),
    onSuccess: () => {
      proofFile.reset();
      toast({ title: t("trip.insurance.uploaded") });
      void queryClient.invalidateQueries({ queryKey: cohortKeys.trip(format.language).slice(0, 3) });
    },
    onError: (e: Error) => proofFile.setError(e.message),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = proofFile.take();
    if (file) upload.mutate(file);
  };
  const proof = trip.insurance.proof;
  const hint = trip.insurance.proofRequired ? t("trip.insurance.required") : t("trip.insurance.optional");
  return (
    <TripCard
      icon={<ShieldCheck aria-hidden="true" className="h-5 w-5" />}
      title={t("trip.insurance.title")}
      anchor={`insurance-proof-${trip.applicationId}`}
    >
      <p>
        {t(trip.insurance.coveredBySchool ? "trip.insurance.coveredBySchool" : "trip.insurance.mandatory")}
      </p>
      {proof ? (
        <p>
          {t("trip.insurance.onFile", {
            date: format.date(proof.uploadedAt),
            type: proof.type.toUpperCase(),
            size: size(proof.sizeBytes),
          })}{" "}
          <a href={proof.url} className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
            <Download aria-hidden="true" className="h-4 w-4" />
            {t("trip.insurance.download")}
          </a>
        </p>
      ) : (
        <p className="font-medium">{t("trip.insurance.missing")}</p>
      )}
      <form onSubmit={submit} className="pt-2" noValidate>
        <DocumentFileInput
          upload={proofFile}
          id={id}
          label={t("trip.insurance.file")}
          required={trip.insurance.proofRequired && !proof}
          hint={hint}
        />
        <Button type="submit" className="mt-3" disabled={upload.isPending}>
          {upload.isPending ? t("trip.insurance.uploading") : t("trip.insurance.upload")}
        </Button>
      </form>
    </TripCard>
  );
}

/** The emergency contact of an application: name, relationship and phone, saved for the school's team. */
function EmergencyContactCard({ trip }: { trip: TripDto }) {
  const { t } = useTranslation("cohort");
  const message = useFieldMessage();
  const queryClient = useQueryClient();
  const { language } = useFormat();
  const form = useForm<EmergencyContact>({
    resolver: zodResolver(emergencyContactSchema),
    defaultValues: trip.emergencyContact ?? { name: "", relationship: "", phone: "" },
  });
  const save = useMutation({
    mutationFn: (contact: EmergencyContact) =>
      call(saveEmergencyContactContract, { params: { id: trip.applicationId }, body: contact }),
    onSuccess: (saved) => {
      form.reset(saved);
      toast({ title: t("trip.contact.saved") });
      void queryClient.invalidateQueries({ queryKey: cohortKeys.trip(language).slice(0, 3) });
    },
    onError: (error: Error) => {
      applyServerErrors(error, form.setError);
      toast({ title: t("trip.contact.saveFailed"), description: error.message, variant: "destructive" });
    },
  });
  const errors = form.formState.errors;
  const prefix = `contact-${trip.applicationId}`;
  const { school } = useSite();
  return (
    <TripCard
      icon={<Phone aria-hidden="true" className="h-5 w-5" />}
      title={t("trip.contact.title")}
      anchor={`emergency-contact-${trip.applicationId}`}
    >
      {school.emergencyPhone ? (
        <p>
          {t("trip.contact.schoolLine")}
          <a
            href={telHref(school.emergencyPhone)}
            className="font-semibold whitespace-nowrap text-brand-700 underline"
          >
            {school.emergencyPhone}
          </a>
        </p>
      ) : null}
      <p>{t("trip.contact.lead")}</p>
      {trip.emergencyContact ? null : <p className="font-medium">{t("trip.contact.none")}</p>}
      <form
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
        className="space-y-4 pt-2"
        noValidate
      >
        <TextField
          id={`${prefix}-name`}
          label={t("trip.contact.name")}
          autoComplete="off"
          error={message(errors.name)}
          {...form.register("name")}
        />
        <TextField
          id={`${prefix}-relationship`}
          label={t("trip.contact.relationship")}
          hint={t("trip.contact.relationshipHint")}
          error={message(errors.relationship)}
          {...form.register("relationship")}
        />
        <TextField
          id={`${prefix}-phone`}
          type="tel"
          inputMode="tel"
          label={t("trip.contact.phone")}
          hint={t("trip.contact.phoneHint")}
          error={message(errors.phone)}
          {...form.register("phone")}
        />
        <Button type="submit" disabled={save.isPending}>
          {t("trip.contact.save")}
        </Button>
      </form>
    </TripCard>
  );
}

/** The trip of one application: arrival, housing, airport pickup, insurance, emergency contact, visa. */
function Trip({ trip }: { trip: TripDto }) {
  const { t } = useTranslation("cohort");
  const format = useFormat();
  const id = `trip-${trip.applicationId}`;
  const pickup = trip.airportPickup;
  return (
    <section aria-labelledby={id} className="space-y-6">
      <div>
        <h2 id={id} className="text-xl font-bold text-brand-900">
          {trip.name}
        </h2>
        <p className="mt-1 text-slate-700">
          {t("common:dates.range", { start: format.date(trip.startDate), end: format.date(trip.endDate) })}
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <TripCard
          icon={<PlaneLanding aria-hidden="true" className="h-5 w-5" />}
          title={t("trip.arrival.title")}
        >
          <dl className="space-y-3">
            <Item label={t("trip.arrival.date")}>
              <time dateTime={trip.arrival.date}>{format.date(trip.arrival.date)}</time>
            </Item>
            {trip.arrival.info ? <Item label={t("trip.arrival.where")}>{trip.arrival.info}</Item> : null}
            {trip.arrival.address ? (
              <Item label={t("trip.arrival.address")}>{trip.arrival.address}</Item>
            ) : null}
          </dl>
          {trip.arrival.info || trip.arrival.address ? null : <p>{t("trip.arrival.none")}</p>}
        </TripCard>
        <TripCard icon={<BedDouble aria-hidden="true" className="h-5 w-5" />} title={t("trip.housing.title")}>
          <dl className="space-y-3">
            {trip.housing.name ? <Item label={t("trip.housing.option")}>{trip.housing.name}</Item> : null}
            {trip.housing.address ? (
              <Item label={t("trip.housing.address")}>{trip.housing.address}</Item>
            ) : null}
          </dl>
          {trip.housing.address ? null : <p>{t("trip.housing.noAddress")}</p>}
        </TripCard>
        <TripCard icon={<Car aria-hidden="true" className="h-5 w-5" />} title={t("trip.pickup.title")}>
          <p>
            {pickup.booked
              ? t("trip.pickup.booked", { name: pickup.name })
              : pickup.offered
                ? t("trip.pickup.notBooked")
                : t("trip.pickup.notOffered")}
          </p>
        </TripCard>
        <InsuranceCard trip={trip} />
        <EmergencyContactCard trip={trip} />
        <VisaLetterCard application={{ id: trip.applicationId }} />
      </div>
    </section>
  );
}

/**
 * /student/trip (docs/product/catalogue-and-pricing.md#cohorts): for each application of the student's cohorts (GET /api/student/trip,
 * in the UI language): arrival, housing address, airport pickup booked or not, travel and health
 * insurance with the proof upload, the emergency contact form, and the place of the visa letter.
 */
export default function StudentTripPage() {
  const { t } = useTranslation("cohort");
  const { language } = useFormat();
  const trip = useQuery({
    queryKey: cohortKeys.trip(language),
    queryFn: ({ signal }) => call(getStudentTripContract, { signal }),
  });
  const trips = trip.data?.trips;
  const { hash } = useLocation();
  useEffect(() => {
    // A next step of the dashboard links to its card (`#insurance-proof-<id>`…): once the trips
    // are shown, bring that card into view.
    if (!trips || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: "start" });
  }, [trips, hash]);
  return (
    <CohortPage title={t("trip.title")} lead={t("trip.lead")}>
      <QueryState query={trip} />
      {trips && trips.length === 0 ? <NoCohort /> : null}
      {trips && trips.length > 0 ? (
        <div className="space-y-12">
          {trips.map((one) => (
            <Trip key={one.applicationId} trip={one} />
          ))}
        </div>
      ) : null}
    </CohortPage>
  );
}
