import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { payments } from "../../db/schema";
import type { Env } from "../../env";
import type { MailService } from "../mail";
import { queueVisaLetterReady } from "./service";

/**
 * Fulfilment step `visaLetter` of an accepted payment (docs/product/admissions.md#visa-letter): the "visa letter ready" e-mail
 * once the payment makes the letter available on `today` (yyyy-mm-dd, The Hague). Idempotent (one
 * e-mail per application: `queueVisaLetterReady`'s dedupe key).
 */
export async function visaLetterStep(
  tx: Tx,
  mail: MailService,
  env: Pick<Env, "APP_ORIGIN" | "SUPPORT_EMAIL">,
  p: { paymentId: string; today: string },
): Promise<void> {
  const [payment] = await tx
    .select({ applicationId: payments.applicationId })
    .from(payments)
    .where(eq(payments.id, p.paymentId));
  if (payment) await queueVisaLetterReady(tx, mail, env, payment.applicationId, p.today);
}
