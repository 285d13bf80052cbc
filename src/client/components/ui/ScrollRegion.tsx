import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { cn } from "./cn";

/** Where a sideways-scrolling box stands: moved from its start, and with more to its right. */
interface ScrollEdges {
  scrolled: boolean;
  more: boolean;
}

/**
 * Follows the sideways scroll of `box` (its scroll events and any change of its size or of its
 * content's): `scrolled` once it has moved from the left edge, `more` while content lies beyond its
 * right edge (1 px of rounding tolerated). Both false before the first measure (server rendering).
 */
function useScrollEdges(box: RefObject<HTMLDivElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ scrolled: false, more: false });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => {
      const scrolled = el.scrollLeft > 0;
      const more = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((old) => (old.scrolled === scrolled && old.more === more ? old : { scrolled, more }));
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(update);
    observer?.observe(el);
    if (el.firstElementChild) observer?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener("scroll", update);
      observer?.disconnect();
    };
  }, [box]);
  return edges;
}

/**
 * A table's box that scrolls sideways on narrow screens (375 px), named by the table's caption
 * (`labelledBy`: the caption's id). It takes the keyboard focus, so the arrow keys scroll it without a
 * mouse (WCAG 2.1.1; axe's scrollable-region-focusable). While content lies beyond its right edge a
 * white fade covers that edge, the cue that it scrolls; once moved from the start it carries
 * `data-scrolled`, on which ScrollTable shadows its fixed first column. Above the width the content
 * needs, it looks like no box at all.
 */
export function ScrollRegion({
  labelledBy,
  className,
  children,
}: {
  labelledBy: string;
  /** Classes of the scrolling box itself (e.g. a card's border). */
  className?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { scrolled, more } = useScrollEdges(box);
  return (
    <div className="relative">
      {/* biome-ignore lint/a11y/useSemanticElements: a labelled scrolling box, not a section of the outline */}
      <div
        ref={box}
        className={cn("overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-700", className)}
        role="region"
        aria-labelledby={labelledBy}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        data-scrolled={scrolled || undefined}
      >
        {children}
      </div>
      {more ? (
        <div
          aria-hidden="true"
          data-scroll-cue="more"
          className="pointer-events-none absolute inset-y-0 right-0 w-10 bg-gradient-to-l from-white via-white/70 to-transparent"
        />
      ) : null}
    </div>
  );
}
