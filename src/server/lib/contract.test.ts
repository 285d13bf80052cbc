/**
 * Routes declared from a contract (src/shared/api/contract.ts, docs/product/api.md#contracts): the body is
 * validated with the contract's schema, the answer is checked and serialised with its response
 * schema and sent with its status; and every contract of the application wizard is served by the
 * app with its method and path.
 */
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPLY_CONTRACTS } from "../../shared/api/apply";
import { contract, pathOf } from "../../shared/api/contract";
import { z } from "../../shared/schemas/zod";
import { createTestApp, type TestApp } from "../testing/harness";
import { route } from "./contract";
import { HttpError } from "./errors";

const echo = contract({
  method: "POST",
  path: "/things/:id",
  access: "public",
  summary: "Echo a thing",
  body: z.object({ name: z.string().min(1, "validation.required") }),
  status: 201,
  response: z.object({ id: z.string(), name: z.string() }),
});

async function appWith(answer: (name: string) => unknown) {
  const app = Fastify();
  app.setErrorHandler((err, _request, reply) =>
    err instanceof HttpError
      ? reply.status(err.status).send({ key: err.messageKey })
      : reply.status(500).send({}),
  );
  route(app, echo, {}, async ({ body }) => answer(body.name) as never);
  await app.ready();
  return app;
}

describe("a route declared from its contract", () => {
  it("answers with the contract's status and only the fields the contract names", async () => {
    const app = await appWith((name) => ({ id: "7", name, passwordHash: "secret" }));
    const res = await app.inject({ method: "POST", url: "/things/7", payload: { name: "Ada" } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: "7", name: "Ada" });
  });

  it("refuses a body the contract does not accept with 400 and the schema's message key", async () => {
    const app = await appWith((name) => ({ id: "7", name }));
    const res = await app.inject({ method: "POST", url: "/things/7", payload: { name: "" } });
    expect(res.statusCode).toBe(400);
    expect(res.json().key).toMatch(/^validation\./);
  });

  it("never sends an answer that breaks the contract (a programming error: 500)", async () => {
    const app = await appWith(() => ({ id: 7 }));
    const res = await app.inject({ method: "POST", url: "/things/7", payload: { name: "Ada" } });
    expect(res.statusCode).toBe(500);
  });

  it("fills a contract's path parameters, encoded", () => {
    expect(pathOf(echo, { id: "a/b c" })).toBe("/things/a%2Fb%20c");
    expect(() => pathOf(echo)).toThrow(/id missing/);
  });
});

describe("the application wizard's contracts", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("are each served by the app with their method and path", () => {
    for (const c of APPLY_CONTRACTS)
      expect(t.app.hasRoute({ method: c.method, url: c.path }), c.path).toBe(true);
  });
});
