import querystring from "node:querystring";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  paymentTestAliasContract,
  paymentTestSuccessAliasContract,
  payTestCheckoutContract,
  showTestCheckoutContract,
  testCheckoutAliasContract,
  testSuccessAliasContract,
} from "../../../../shared/api/offline-checkout";
import {
  isLanguage,
  type Language,
  LOCALE_OF,
  parseAcceptLanguage,
  resolveLanguage,
} from "../../../../shared/i18n/languages";
import { formatMoney } from "../../../../shared/money";
import type { Db } from "../../../db/client";
import { route } from "../../../lib/contract";
import {
  buildOfflineEvent,
  completeOfflineSession,
  effectiveStatus,
  getOfflineSession,
  type OfflineSessionRow,
  offlinePayload,
  signOfflineEvent,
} from "./offline";

export interface OfflineCheckoutRoutesOptions {
  db: Db;
  /** The offline provider's webhook secret: signs the `checkout.session.completed` event. */
  webhookSecret: string;
  /**
   * Hands a signed event to the real webhook endpoint (the caller wires it through `app.inject`
   * to POST /api/payments/webhook with the `stripe-signature` header), so the simulated payment
   * takes the same code path as a Stripe one. Its answer is only logged.
   */
  deliver: (rawBody: string, signature: string) => Promise<{ statusCode: number }>;
  /** Shown in the page footer. */
  supportEmail: string;
  /** Site name shown in the page header, e.g. "The Hague Summer School". */
  schoolBrand: string;
}

interface PageText {
  banner: string;
  payingFor: string;
  item: string;
  amount: string;
  discount: string;
  total: string;
  pay: (total: string) => string;
  cancel: string;
  expiredTitle: string;
  expiredBody: string;
  back: string;
  paidTitle: string;
  paidBody: string;
  continue: string;
  notFoundTitle: string;
  notFoundBody: string;
  home: string;
  questions: string;
}

const TEXT: Record<Language, PageText> = {
  en: {
    banner: "Test checkout — no real payment is taken",
    payingFor: "Payment for",
    item: "Item",
    amount: "Amount",
    discount: "Discount",
    total: "Total",
    pay: (total) => `Pay ${total}`,
    cancel: "Cancel and return",
    expiredTitle: "This checkout session has expired",
    expiredBody: "No payment was taken. Go back to your application to start a new payment.",
    back: "Back to your application",
    paidTitle: "This checkout session is already paid",
    paidBody: "Your payment has been received. Nothing more to do here.",
    continue: "Continue",
    notFoundTitle: "Checkout session not found",
    notFoundBody: "The link is incomplete, or this checkout session does not exist.",
    home: "Go to the home page",
    questions: "Questions? Write to",
  },
  zh: {
    banner: "测试结账 — 不会收取任何真实款项",
    payingFor: "付款项目",
    item: "项目",
    amount: "金额",
    discount: "折扣",
    total: "合计",
    pay: (total) => `支付 ${total}`,
    cancel: "取消并返回",
    expiredTitle: "此结账会话已过期",
    expiredBody: "未收取任何款项。请返回您的申请，重新发起付款。",
    back: "返回您的申请",
    paidTitle: "此结账会话已付款",
    paidBody: "我们已收到您的付款，无需其他操作。",
    continue: "继续",
    notFoundTitle: "未找到结账会话",
    notFoundBody: "链接不完整，或此结账会话不存在。",
    home: "返回首页",
    questions: "如有疑问，请发邮件至",
  },
  fr: {
    banner: "Paiement de test — aucun paiement réel n’est effectué",
    payingFor: "Paiement pour",
    item: "Article",
    amount: "Montant",
    discount: "Réduction",
    total: "Total",
    pay: (total) => `Payer ${total}`,
    cancel: "Annuler et revenir",
    expiredTitle: "Cette session de paiement a expiré",
    expiredBody:
      "Aucun paiement n’a été effectué. Revenez à votre candidature pour lancer un nouveau paiement.",
    back: "Revenir à votre candidature",
    paidTitle: "Cette session de paiement est déjà réglée",
    paidBody: "Votre paiement a bien été reçu. Plus rien à faire ici.",
    continue: "Continuer",
    notFoundTitle: "Session de paiement introuvable",
    notFoundBody: "Le lien est incomplet, ou cette session de paiement n’existe pas.",
    home: "Aller à la page d’accueil",
    questions: "Des questions ? Écrivez à",
  },
};

const FORM_TYPE = "application/x-www-form-urlencoded";
const BODY_LIMIT = 4096;

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}

/** Only absolute http(s) URLs or site paths end up in a link or a redirect. */
function safeUrl(url: string): string {
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : "/";
  } catch {
    return "/";
  }
}

function successUrlOf(row: OfflineSessionRow): string {
  return safeUrl(offlinePayload(row).successUrl.replaceAll("{CHECKOUT_SESSION_ID}", row.id));
}

function requestLanguageOf(request: FastifyRequest): Language {
  const decorated = (request as { language?: unknown }).language;
  if (isLanguage(decorated)) return decorated;
  const cookie = /(?:^|;\s*)language=([^;]*)/.exec(request.headers.cookie ?? "")?.[1];
  return resolveLanguage(cookie, parseAcceptLanguage(request.headers["accept-language"]));
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"PingFang SC","Microsoft YaHei",sans-serif;background:#f4f5f7;color:#1a1d23;line-height:1.5}
header{background:#12284a;color:#fff;padding:.75rem 1.25rem;font-weight:600}
.banner{background:#fff4ce;color:#5c4400;border-bottom:1px solid #e6cf7a;padding:.6rem 1.25rem;font-weight:600;text-align:center}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.35rem;margin:0 0 1rem}
p{margin:.5rem 0 1rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}
caption{text-align:left;color:#4a5160;font-size:.9rem;padding-bottom:.25rem}
th,td{padding:.5rem 0;border-bottom:1px solid #e3e5ea;text-align:left;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap;padding-left:1rem}
tr.discount td{color:#1d6b35}
tfoot th,tfoot td{font-weight:700;border-bottom:0;font-size:1.1rem}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-top:1.5rem}
button,.button{display:inline-block;background:#1f5eff;color:#fff;border:0;border-radius:.5rem;padding:.75rem 1.25rem;font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
button:hover,.button:hover{background:#1748c7}
button:focus-visible,a:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
a{color:#1748c7}
footer{max-width:36rem;margin:0 auto 2rem;padding:0 1.5rem;color:#4a5160;font-size:.9rem}
`;

function page(options: {
  language: Language;
  brand: string;
  supportEmail: string;
  title: string;
  body: string;
}): string {
  const t = TEXT[options.language];
  const email = escapeHtml(options.supportEmail);
  return `<!doctype html>
<html lang="${LOCALE_OF[options.language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(options.title)} — ${escapeHtml(options.brand)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>${escapeHtml(options.brand)}</header>
<div class="banner" role="note">${escapeHtml(t.banner)}</div>
<main>
${options.body}
</main>
<footer>${escapeHtml(t.questions)} <a href="mailto:${email}">${email}</a></footer>
</body>
</html>
`;
}

/**
 * The simulated hosted checkout of the offline provider (docs/product/payments.md#test-routes; register
 * it only while the offline provider is active). All answers carry `cache-control: no-store`.
 *
 * - GET /test-payment?session_id=cs_offline_… → the checkout page (HTML, no scripts): banner
 *   "Test checkout — no real payment is taken", school name, line items, discount, total (EUR in
 *   the session's language), a "Pay <total>" form and a "Cancel and return" link. Unknown or
 *   malformed id: 404 page; expired: 410 page linking to the cancel URL; paid: page linking to
 *   the success URL.
 * - POST /test-payment/pay (urlencoded `session_id`, ≤ 4 KB) → completes the session, delivers a
 *   signed `checkout.session.completed` event through `opts.deliver`, then 303 to the success URL
 *   (`{CHECKOUT_SESSION_ID}` replaced), even when delivery failed: the success page verifies
 *   through the provider. Already paid: 303 to the success URL without a second event.
 * - GET /test, /payment-test → 302 /test-payment; GET /test-success, /payment-test-success →
 *   302 /payment-success (query string kept).
 */
export async function registerOfflineCheckoutRoutes(
  app: FastifyInstance,
  opts: OfflineCheckoutRoutesOptions,
): Promise<void> {
  const { db, webhookSecret, deliver, supportEmail, schoolBrand } = opts;

  await app.register(async (scope) => {
    if (scope.hasContentTypeParser(FORM_TYPE)) scope.removeContentTypeParser(FORM_TYPE);
    scope.addContentTypeParser(
      FORM_TYPE,
      { parseAs: "string", bodyLimit: BODY_LIMIT },
      (_request, body, done) => {
        done(null, querystring.parse(String(body)));
      },
    );
    scope.addHook("onSend", async (_request, reply, payload) => {
      reply.header("cache-control", "no-store");
      reply.header("x-robots-tag", "noindex, nofollow");
      return payload;
    });

    const html = (reply: FastifyReply, status: number, body: string) =>
      reply.status(status).type("text/html; charset=utf-8").send(body);

    const notFound = (request: FastifyRequest, reply: FastifyReply) => {
      const language = requestLanguageOf(request);
      const t = TEXT[language];
      return html(
        reply,
        404,
        page({
          language,
          brand: schoolBrand,
          supportEmail,
          title: t.notFoundTitle,
          body: `<h1>${escapeHtml(t.notFoundTitle)}</h1>
<p>${escapeHtml(t.notFoundBody)}</p>
<p><a href="/">${escapeHtml(t.home)}</a></p>`,
        }),
      );
    };

    const expired = (reply: FastifyReply, row: OfflineSessionRow) => {
      const payload = offlinePayload(row);
      const t = TEXT[payload.language];
      return html(
        reply,
        410,
        page({
          language: payload.language,
          brand: schoolBrand,
          supportEmail,
          title: t.expiredTitle,
          body: `<h1>${escapeHtml(t.expiredTitle)}</h1>
<p>${escapeHtml(t.expiredBody)}</p>
<p><a class="button" href="${escapeHtml(safeUrl(payload.cancelUrl))}">${escapeHtml(t.back)}</a></p>`,
        }),
      );
    };

    const paid = (reply: FastifyReply, row: OfflineSessionRow) => {
      const payload = offlinePayload(row);
      const t = TEXT[payload.language];
      return html(
        reply,
        200,
        page({
          language: payload.language,
          brand: schoolBrand,
          supportEmail,
          title: t.paidTitle,
          body: `<h1>${escapeHtml(t.paidTitle)}</h1>
<p>${escapeHtml(t.paidBody)}</p>
<p><a class="button" href="${escapeHtml(successUrlOf(row))}">${escapeHtml(t.continue)}</a></p>`,
        }),
      );
    };

    const checkout = (reply: FastifyReply, row: OfflineSessionRow) => {
      const payload = offlinePayload(row);
      const { language } = payload;
      const t = TEXT[language];
      const money = (cents: number) => escapeHtml(formatMoney(cents, language));
      const total = formatMoney(payload.amountCents, language);
      const items = payload.lineItems
        .map(
          (item) =>
            `<tr><td>${escapeHtml(item.name)}</td><td class="num">${money(item.amountCents)}</td></tr>`,
        )
        .join("\n");
      const discount =
        payload.discountCents > 0
          ? `<tr class="discount"><td>${escapeHtml(payload.discountLabel ?? t.discount)}</td><td class="num">${money(-payload.discountCents)}</td></tr>`
          : "";
      return html(
        reply,
        200,
        page({
          language,
          brand: schoolBrand,
          supportEmail,
          title: t.banner,
          body: `<h1>${escapeHtml(payload.schoolName)}</h1>
<table>
<caption>${escapeHtml(t.payingFor)}</caption>
<thead><tr><th scope="col">${escapeHtml(t.item)}</th><th scope="col" class="num">${escapeHtml(t.amount)}</th></tr></thead>
<tbody>
${items}
${discount}
</tbody>
<tfoot><tr><th scope="row">${escapeHtml(t.total)}</th><td class="num">${escapeHtml(total)}</td></tr></tfoot>
</table>
<form method="post" action="/test-payment/pay" class="actions">
<input type="hidden" name="session_id" value="${escapeHtml(row.id)}">
<button type="submit">${escapeHtml(t.pay(total))}</button>
<a href="${escapeHtml(safeUrl(payload.cancelUrl))}">${escapeHtml(t.cancel)}</a>
</form>`,
        }),
      );
    };

    const sessionIdOf = (source: unknown): string => {
      const value = (source as Record<string, unknown> | undefined)?.session_id;
      return typeof value === "string" ? value : "";
    };

    route(scope, showTestCheckoutContract, {}, async ({ request, reply }) => {
      const row = await getOfflineSession(db, sessionIdOf(request.query));
      if (!row) return notFound(request, reply);
      const status = effectiveStatus(row);
      if (status === "complete") return paid(reply, row);
      if (status === "expired") return expired(reply, row);
      return checkout(reply, row);
    });

    route(scope, payTestCheckoutContract, { bodyLimit: BODY_LIMIT }, async ({ request, reply }) => {
      const id = sessionIdOf(request.body);
      const completed = await completeOfflineSession(db, id);
      if (!completed) {
        const row = await getOfflineSession(db, id);
        if (!row) return notFound(request, reply);
        if (effectiveStatus(row) === "complete") return reply.redirect(successUrlOf(row), 303);
        return expired(reply, row);
      }
      const rawBody = JSON.stringify(buildOfflineEvent("checkout.session.completed", completed));
      const signature = signOfflineEvent(rawBody, webhookSecret);
      try {
        const result = await deliver(rawBody, signature);
        if (result.statusCode >= 300) {
          request.log.warn(
            { sessionId: completed.id, statusCode: result.statusCode },
            "offline checkout: webhook delivery was not accepted; the success page will verify",
          );
        }
      } catch (error) {
        request.log.error(
          { err: error, sessionId: completed.id },
          "offline checkout: webhook delivery failed",
        );
      }
      return reply.redirect(successUrlOf(completed), 303);
    });

    const redirectKeepingQuery =
      (target: string) =>
      async ({ request, reply }: { request: FastifyRequest; reply: FastifyReply }) => {
        const index = request.url.indexOf("?");
        return reply.redirect(index >= 0 ? `${target}${request.url.slice(index)}` : target, 302);
      };
    route(scope, testCheckoutAliasContract, {}, redirectKeepingQuery("/test-payment"));
    route(scope, paymentTestAliasContract, {}, redirectKeepingQuery("/test-payment"));
    route(scope, testSuccessAliasContract, {}, redirectKeepingQuery("/payment-success"));
    route(scope, paymentTestSuccessAliasContract, {}, redirectKeepingQuery("/payment-success"));
  });
}

/**
 * Delivers a signed offline event to the app's own webhook route (POST /api/payments/webhook
 * through `app.inject`), the path the simulated checkout and the offline refunds take, so both
 * go through the same verification and processing as Stripe's events. Returns the route's status.
 */
export async function deliverToOwnWebhook(
  app: FastifyInstance,
  rawBody: string,
  signature: string,
): Promise<{ statusCode: number }> {
  const res = await app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    payload: rawBody,
  });
  return { statusCode: res.statusCode };
}
