import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { leaveWaitingListContract } from "../../../shared/api/waiting-list";
import { Notice, SubmitButton } from "../../components/account/auth";
import { Card, Container, PageHeader } from "../../components/ui/Layout";
import { call } from "../../lib/call";

/**
 * /waiting-list/leave/:token (docs/product/admissions.md#waiting-list): the link of the waiting-list e-mails. Leaving takes a
 * press (a mail scanner that opens links leaves nobody off the list); `POST
 * /api/waiting-list/leave` answers the same for any link, and the page thanks the visitor.
 */
export default function LeavePage() {
  const { t } = useTranslation("waitingList");
  const { token = "" } = useParams();
  const leave = useMutation({
    mutationFn: () => call(leaveWaitingListContract, { body: { token } }),
  });
  return (
    <>
      <PageHeader title={t("leave.title")} lead={leave.isSuccess ? undefined : t("leave.lead")} />
      <Container className="max-w-xl pb-16">
        <Card>
          {leave.isSuccess ? (
            <Notice tone="success" title={t("leave.doneTitle")}>
              <p>{t("leave.doneBody")}</p>
            </Notice>
          ) : (
            <form
              method="post"
              onSubmit={(event) => {
                event.preventDefault();
                leave.mutate();
              }}
              className="space-y-4"
            >
              {leave.isError ? (
                <Notice tone="error">
                  <p>{leave.error.message}</p>
                </Notice>
              ) : null}
              <SubmitButton busy={leave.isPending}>{t("leave.submit")}</SubmitButton>
            </form>
          )}
        </Card>
      </Container>
    </>
  );
}
