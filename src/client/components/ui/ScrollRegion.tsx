import type { ReactNode } from "react";

/**
 * A table's box that scrolls sideways on narrow screens (375 px), labelled by the table's caption.
 * It takes the keyboard focus so it can be scrolled without a mouse (WCAG 2.1.1).
 */
export function ScrollRegion({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled scrolling box, not a section of the outline
    <div
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-700"
      role="region"
      aria-labelledby={labelledBy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
    >
      {children}
    </div>
  );
}
