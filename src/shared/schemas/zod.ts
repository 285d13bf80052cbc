import { config } from "zod/v4/core";

/**
 * The one `z` every schema of the project imports (`import { z } from "<…>/shared/schemas/zod"`).
 * Zod compiles object schemas with `new Function` unless told not to, and probes for it first.
 * Under the site's CSP (script-src 'self', no 'unsafe-eval') that probe is refused and reported as
 * a `securitypolicyviolation` on every page with a form. Jitless mode skips both. Setting it here,
 * in the module that hands out `z`, runs it before any schema is built, and keeps Zod out of pages
 * that have no form (the landing page's JavaScript budget, docs/product/portals.md#public-site).
 */
config({ jitless: true });

export { z } from "zod";
