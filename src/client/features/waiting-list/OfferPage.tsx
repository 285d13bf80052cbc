import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { acceptWaitingListOfferContract } from "../../../shared/api/waiting-list";
import { dateFormatFor } from "../../../shared/date-format";
import { Notice } from "../../components/account/auth";
import { ButtonLink } from "../../components/ui/Button";
import { Card, Container, PageHeader } from "../../components/ui/Layout";
import { Spinner } from "../../components/ui/Spinner";
import { ApiError } from "../../lib/api";
import { call } from "../../lib/call";
import { useLanguage } from "../../lib/catalogue";
import { useFormat } from "../../lib/format";
import { rememberOffer } from "../../lib/waiting-list-offer";

/**
 * /waiting-list/offer/:token (docs/product/admissions.md#waiting-list): the page an offer e-mail's link opens. `POST
 * /api/waiting-list/offers/accept` gives the browser the offer's cookie while it holds the place;
 * the page then says until when (The Hague time) and leads to the application for that cohort,
 * which the wizard shows as choosable. A lapsed or unknown offer is said so, with the way back to
 * the waiting list.
 */
export default function OfferPage() {
  const { t } = useTranslation("waitingList");
  const language = useLanguage();
  const format = useFormat();
  const { token = "" } = useParams();
  const offer = useQuery({
    queryKey: ["waiting-list-offer", token],
    queryFn: () => call(acceptWaitingListOfferContract, { body: { token } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (offer.data?.open)
      rememberOffer({ summerSchoolId: offer.data.summerSchoolId, expiresAt: offer.data.expiresAt });
  }, [offer.data]);
  const until = (iso: string) =>
    dateFormatFor(language, {
      dateStyle: "long",
      timeStyle: "short",
      timeZone: "Europe/Amsterdam",
    }).format(new Date(iso));

  let content: ReactNode;
  if (offer.isPending) content = <Spinner />;
  else if (offer.isError)
    content = (
      <Notice tone="error" title={t("offer.unknownTitle")}>
        <p>{offer.error instanceof ApiError ? offer.error.message : t("offer.loadError")}</p>
      </Notice>
    );
  else if (!offer.data.open)
    content = (
      <Notice tone="error" title={t("offer.lapsedTitle")}>
        <p>
          {t("offer.lapsedBody", { program: offer.data.programName })}{" "}
          <Link to={`/waiting-list/${offer.data.summerSchoolId}`}>{t("offer.joinAgain")}</Link>
        </p>
      </Notice>
    );
  else
    content = (
      <div className="space-y-5">
        <Notice tone="success" title={t("offer.heldTitle", { program: offer.data.programName })}>
          <p>
            {t("offer.heldBody", {
              start: format.date(offer.data.startDate),
              end: format.date(offer.data.endDate),
              until: until(offer.data.expiresAt),
            })}
          </p>
        </Notice>
        <ButtonLink to={`/apply?school=${encodeURIComponent(offer.data.summerSchoolId)}`}>
          {t("offer.apply")}
        </ButtonLink>
      </div>
    );

  return (
    <>
      <PageHeader title={t("offer.title")} />
      <Container className="max-w-xl pb-16">
        <Card>{content}</Card>
      </Container>
    </>
  );
}
