import { config } from "zod/v4/core";

/**
 * Zod compiles object schemas with `new Function` unless told not to, and probes for it first.
 * Under the site's CSP (script-src 'self', no 'unsafe-eval') that probe is refused and reported as a
 * `securitypolicyviolation` on every page with a form. Jitless mode skips both. Imported first by
 * entry-client, before any schema is built.
 */
config({ jitless: true });
