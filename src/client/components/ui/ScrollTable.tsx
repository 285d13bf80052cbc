import type { ReactNode } from "react";
import { cn } from "./cn";
import { ScrollRegion } from "./ScrollRegion";

/**
 * A data table that stays whole on a phone (375 px): it scrolls sideways inside its own box
 * (ScrollRegion: focusable, named by the caption, a fade on the right edge while there is more) and
 * its first column, the row's name (a date, a student), stays fixed at the left edge on an opaque
 * background while the other columns scroll under it, with a shadow once scrolled (the sticky
 * column rules of `.scroll-table` in app/styles.css). Above the width the table needs, nothing
 * moves and it looks as a plain table.
 *
 * `children` are the table's `thead`, `tbody` and `tfoot`; a row group with a background of its own
 * (e.g. `bg-slate-50` on the `thead`) passes it on to its fixed cell. `minWidth` is the table's
 * Tailwind min-width class (e.g. `min-w-[44rem]`), the width under which the box scrolls.
 * `captionVisible` shows the caption as the table's title above the box (the `<caption>` itself stays
 * for screen readers, so the title does not scroll away with the columns); otherwise it is read only.
 */
export function ScrollTable({
  caption,
  captionId,
  captionVisible = false,
  minWidth,
  className,
  tableClassName,
  children,
}: {
  caption: ReactNode;
  captionId: string;
  captionVisible?: boolean;
  minWidth?: string;
  /** Classes of the scrolling box (e.g. a card's border). */
  className?: string;
  /** Further classes of the `<table>` (text size, dividers). */
  tableClassName?: string;
  children: ReactNode;
}) {
  return (
    <div>
      {captionVisible ? (
        <p aria-hidden="true" className="mb-2 text-sm font-semibold text-brand-900">
          {caption}
        </p>
      ) : null}
      <ScrollRegion labelledBy={captionId} className={className}>
        <table className={cn("scroll-table w-full", minWidth, tableClassName)}>
          <caption id={captionId} className="sr-only">
            {caption}
          </caption>
          {children}
        </table>
      </ScrollRegion>
    </div>
  );
}
