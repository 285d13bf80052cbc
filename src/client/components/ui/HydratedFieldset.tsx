import type { ReactNode } from "react";
import { useHydrated } from "../../lib/hydration";
import { cn } from "./cn";

/**
 * A group of form controls that stays disabled until React has taken over the prerendered page.
 * A choice made before that would be undone by hydration (React renders its own state over the
 * page), so a visitor on a slow phone sees the controls disabled for a moment rather than losing a
 * click (decision 009). Turning on re-renders only the fieldset, not its children.
 */
export function HydratedFieldset({ className, children }: { className?: string; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className={cn("min-w-0", className)}>
      {children}
    </fieldset>
  );
}
