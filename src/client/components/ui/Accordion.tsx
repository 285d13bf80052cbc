import { ChevronDown } from "lucide-react";
import { useId } from "react";

/**
 * Question-and-answer list built on native `<details>`/`<summary>`: keyboard and screen-reader
 * accessible with no JavaScript, the answers are in the server-rendered HTML (search engines and
 * visitors without scripts get them), and items of one list share a `name`, so opening one closes
 * the others (exclusive accordion).
 */
export function Accordion({ items }: { items: Array<{ question: string; answer: string }> }) {
  const group = useId();
  return (
    <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {items.map((item) => (
        <details key={item.question} name={group} className="group">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-brand-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
            <h3 className="text-base font-semibold">{item.question}</h3>
            <ChevronDown
              aria-hidden="true"
              className="h-5 w-5 shrink-0 transition-transform group-open:rotate-180"
            />
          </summary>
          <p className="px-5 pb-5 text-slate-700">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}
