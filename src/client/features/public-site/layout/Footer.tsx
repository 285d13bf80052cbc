import { Mail, MapPin, Phone } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { telHref } from "../../../../shared/site";
import { useSite } from "../../../lib/site";

/** A titled list of footer links (a labelled navigation landmark). */
function FooterLinks({
  id,
  title,
  links,
}: {
  id: string;
  title: string;
  links: Array<{ to: string; label: string }>;
}) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="text-sm font-semibold tracking-wide text-white uppercase">
        {title}
      </h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-brand-100 hover:text-white hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Site footer (docs/product/portals.md#public-site): the programme links, legal links, support mail link and a maps link. */
export function Footer() {
  const { t } = useTranslation("common");
  const { supportEmail, today, school } = useSite();
  const explore = [
    { to: "/program", label: t("nav.program") },
    { to: "/apply", label: t("nav.apply") },
    { to: "/campus-life", label: t("nav.forStudents") },
    { to: "/for-parents", label: t("nav.forParents") },
    { to: "/for-universities", label: t("nav.forUniversities") },
    { to: "/affiliate-program", label: t("footer.affiliateProgram") },
    // The newsletter's sign-up, on every public page (docs/product/portals.md#newsletter).
    { to: "/newsletter", label: t("footer.newsletter") },
  ];
  const legal = [
    { to: "/privacy-policy", label: t("footer.privacy") },
    { to: "/terms", label: t("footer.terms") },
    { to: "/cookie-policy", label: t("footer.cookies") },
    { to: "/gdpr", label: t("footer.gdpr") },
    { to: "/accessibility", label: t("footer.accessibility") },
  ];
  return (
    <footer className="no-print mt-auto bg-brand-900 text-brand-50">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="lg:col-span-1">
          <p className="text-lg font-bold text-white">{t("brand.name")}</p>
          <p className="mt-3 text-sm text-brand-100">{t("footer.about")}</p>
        </div>
        <FooterLinks id="footer-explore" title={t("footer.explore")} links={explore} />
        <FooterLinks id="footer-legal" title={t("footer.legal")} links={legal} />
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{t("footer.contact")}</h2>
          <ul className="mt-3 space-y-3 text-sm">
            <li>
              <a
                href={`mailto:${supportEmail}`}
                className="inline-flex items-center gap-2 break-all text-brand-100 hover:text-white hover:underline"
              >
                <Mail aria-hidden="true" className="h-4 w-4 shrink-0" />
                {supportEmail}
              </a>
            </li>
            {school.phone ? (
              <li>
                <a
                  href={telHref(school.phone)}
                  className="inline-flex items-center gap-2 text-brand-100 hover:text-white hover:underline"
                >
                  <Phone aria-hidden="true" className="h-4 w-4 shrink-0" />
                  {t("footer.phone", { phone: school.phone })}
                </a>
              </li>
            ) : null}
            <li>
              <a
                href="https://www.openstreetmap.org/search?query=The%20Hague"
                className="inline-flex items-center gap-2 text-brand-100 hover:text-white hover:underline"
                rel="noopener"
              >
                <MapPin aria-hidden="true" className="h-4 w-4 shrink-0" />
                {t("footer.address")} — {t("footer.map")}
              </a>
            </li>
            <li>
              <Link to="/contact" className="text-brand-100 hover:text-white hover:underline">
                {t("footer.contactPage")}
              </Link>
            </li>
            <li>
              <button
                type="button"
                data-reset-consent=""
                className="text-brand-100 hover:text-white hover:underline"
              >
                {t("footer.cookieSettings")}
              </button>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-brand-800">
        <p className="mx-auto w-full max-w-6xl px-4 py-4 text-xs text-brand-100 sm:px-6 lg:px-8">
          {t("footer.rights", { year: today.slice(0, 4) })}
          {school.legalName ? (
            <>
              <br />
              {t("footer.legalLine", {
                name: school.legalName,
                address: school.address,
                kvk: school.kvkNumber,
                vat: school.vatNumber,
              })}
            </>
          ) : null}
        </p>
      </div>
    </footer>
  );
}
