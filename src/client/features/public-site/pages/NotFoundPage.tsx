import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "../../../components/ui/Button";
import { Container } from "../../../components/ui/Layout";
import { useSite } from "../../../lib/site";

/**
 * The main pages offered from the 404 page (docs/product/api.md#not-found), besides the home page's button, with their
 * `common` navigation labels; links stay in the reader's language (the router's language prefix).
 */
const MAIN_LINKS = [
  { to: "/program", label: "nav.program" },
  { to: "/apply", label: "nav.apply" },
  { to: "/faq", label: "nav.faq" },
  { to: "/contact", label: "footer.contact" },
] as const;

/**
 * The page for any unknown path (docs/product/portals.md#public-site, docs/product/api.md#not-found): says in plain words that the page does not exist,
 * offers the home page and the main pages and the school's address for help (docs/product/admissions.md#waiting-list). The spec's
 * "404 Page Not Found" is only in an HTML comment the server adds to the page's head (renderer.ts).
 */
export default function NotFoundPage() {
  const { t } = useTranslation("common");
  const { supportEmail } = useSite();
  return (
    <Container className="py-24 text-center">
      <h1 className="text-3xl font-bold text-brand-900">{t("notFound.title")}</h1>
      <p className="mt-4 text-slate-700">{t("notFound.help")}</p>
      <p className="mt-2 text-sm text-slate-700">{t("notFound.body", { email: supportEmail })}</p>
      <ButtonLink to="/" className="mt-8">
        {t("notFound.home")}
      </ButtonLink>
      <nav aria-labelledby="not-found-links" className="mt-10">
        <h2 id="not-found-links" className="font-semibold text-brand-900">
          {t("notFound.linksTitle")}
        </h2>
        <ul className="mt-3 flex flex-wrap justify-center gap-x-6 gap-y-2">
          {MAIN_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="inline-flex min-h-11 items-center text-brand-700 underline">
                {t(link.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Container>
  );
}
