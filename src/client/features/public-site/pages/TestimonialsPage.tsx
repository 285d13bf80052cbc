import { Quote } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "../../../components/ui/Button";
import { PageHeader, Section } from "../../../components/ui/Layout";

const PARTICIPANTS = ["wei", "amara", "tendai", "claire", "yuting", "kwame"] as const;
const PARENTS = ["hong", "moussa"] as const;

/** One quote: `<group>.<id>.quote`, `.name` and `.detail` (country and role). */
function Testimonial({ group, id }: { group: "participants" | "parents"; id: string }) {
  const { t } = useTranslation("testimonials");
  const name = t(`${group}.${id}.name`);
  return (
    <figure className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <Quote aria-hidden="true" className="h-7 w-7 text-accent-600" />
      <blockquote className="mt-3 flex-1 text-slate-800">
        <p>{t(`${group}.${id}.quote`)}</p>
      </blockquote>
      <figcaption className="mt-5 flex items-center gap-3 border-t border-slate-200 pt-4">
        <span
          aria-hidden="true"
          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
        >
          {name.charAt(0)}
        </span>
        <span>
          <span className="block font-semibold text-brand-900">{name}</span>
          <span className="block text-sm text-slate-700">{t(`${group}.${id}.detail`)}</span>
        </span>
      </figcaption>
    </figure>
  );
}

/** /testimonials (docs/product/catalogue-and-pricing.md#quote): quotes of past participants and parents. */
export default function TestimonialsPage() {
  const { t } = useTranslation("testimonials");

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")} />

      <Section title={t("participants.title")}>
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {PARTICIPANTS.map((id) => (
            <li key={id}>
              <Testimonial group="participants" id={id} />
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("parents.title")} tinted>
        <ul className="grid gap-6 md:grid-cols-2">
          {PARENTS.map((id) => (
            <li key={id}>
              <Testimonial group="parents" id={id} />
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("cta.title")} intro={t("cta.body")}>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
          <ButtonLink to="/apply" size="lg" className="text-center">
            {t("cta.apply")}
          </ButtonLink>
          <ButtonLink to="/program" variant="secondary" size="lg" className="text-center">
            {t("cta.program")}
          </ButtonLink>
          <Link
            to="/for-parents"
            className="font-semibold text-brand-700 underline hover:text-brand-900 sm:ml-2"
          >
            {t("cta.parents")}
          </Link>
        </div>
      </Section>
    </>
  );
}
