import type { ReactNode } from "react";
import { cn } from "./cn";

/** Centred content column with side padding. */
export function Container({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8", className)}>{children}</div>;
}

/** A page's top band: its one `h1`, an optional lead paragraph and optional actions. */
export function PageHeader({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: string;
  children?: ReactNode;
}) {
  return (
    <header className="bg-gradient-to-b from-brand-50 to-white py-12 sm:py-16">
      <Container>
        <h1 className="max-w-3xl text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">{title}</h1>
        {lead ? <p className="mt-4 max-w-2xl text-lg text-slate-700">{lead}</p> : null}
        {children ? <div className="mt-6 flex flex-wrap gap-3">{children}</div> : null}
      </Container>
    </header>
  );
}

/** A titled page section (`h2`), optionally on a tinted background. */
export function Section({
  title,
  intro,
  tinted = false,
  id,
  children,
}: {
  title?: string;
  intro?: string;
  tinted?: boolean;
  id?: string;
  children: ReactNode;
}) {
  // A section without a title is a plain block: an HTML <section> needs a heading (docs/product/portals.md#public-site).
  const Element = title ? "section" : "div";
  return (
    <Element id={id} className={cn("py-12 sm:py-16", tinted && "bg-slate-50")}>
      <Container>
        {title ? <h2 className="text-2xl font-bold text-brand-900 sm:text-3xl">{title}</h2> : null}
        {intro ? <p className="mt-3 max-w-3xl text-slate-700">{intro}</p> : null}
        <div className={title || intro ? "mt-8" : undefined}>{children}</div>
      </Container>
    </Element>
  );
}

/** A white rounded card. */
export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={cn("rounded-xl border border-slate-200 bg-white p-6 shadow-sm", className)}>
      {children}
    </div>
  );
}

/** Long-form text (legal pages, articles): readable measure and spacing for headings, lists and paragraphs. */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="max-w-3xl space-y-4 text-slate-700 [&_a]:text-brand-700 [&_a]:underline [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-brand-900 [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-brand-900 [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-1">
      {children}
    </div>
  );
}
