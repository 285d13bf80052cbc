import * as RadixAccordion from "@radix-ui/react-accordion";
import { ChevronDown } from "lucide-react";

/**
 * Question-and-answer list (Radix Accordion): keyboard accessible, one item open at a time. Closed
 * answers stay in the HTML (hidden), so the server-rendered page and search engines have them.
 */
export function Accordion({ items }: { items: Array<{ question: string; answer: string }> }) {
  return (
    <RadixAccordion.Root
      type="single"
      collapsible
      className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
    >
      {items.map((item, i) => (
        <RadixAccordion.Item key={item.question} value={`item-${i}`}>
          <RadixAccordion.Header asChild>
            <h3>
              <RadixAccordion.Trigger className="group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-brand-900 hover:bg-slate-50">
                {item.question}
                <ChevronDown
                  aria-hidden="true"
                  className="h-5 w-5 shrink-0 transition-transform group-data-[state=open]:rotate-180"
                />
              </RadixAccordion.Trigger>
            </h3>
          </RadixAccordion.Header>
          <RadixAccordion.Content forceMount className="px-5 pb-5 text-slate-700 data-[state=closed]:hidden">
            {item.answer}
          </RadixAccordion.Content>
        </RadixAccordion.Item>
      ))}
    </RadixAccordion.Root>
  );
}
