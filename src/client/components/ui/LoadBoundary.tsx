import { Component, type ComponentType, createElement, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { dismiss, useToasts } from "./toast-store";

/**
 * A component whose module loads on first render, like `React.lazy`, but whose failed load is
 * tried again: `React.lazy` keeps a rejected import for good, so a page or wizard step whose
 * chunk failed once (the connection dropped, the server was restarting) could never appear
 * without a reload. A failed load throws its error once, to the nearest `LoadBoundary`, and the
 * next render (the boundary's "Try again") imports anew (docs/product/portals.md#failure-states).
 */
// biome-ignore lint/suspicious/noExplicitAny: the same signature as React.lazy's
export function retryableLazy<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): T {
  let loaded: T | undefined;
  let pending: Promise<void> | undefined;
  let failure: unknown;
  // biome-ignore lint/correctness/noComponentHookFactories: a factory like React.lazy, called once per module at its top level
  function Lazy(props: object) {
    if (loaded) return createElement(loaded, props);
    if (failure !== undefined) {
      const error = failure;
      failure = undefined;
      pending = undefined;
      throw error;
    }
    pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        failure = error ?? new Error("load failed");
      },
    );
    // Suspends until the module is there or its load failed (then the next render throws).
    throw pending;
  }
  return Lazy as T;
}

interface BoundaryProps {
  children: ReactNode;
  /** What to show instead when a part fails; the default is a plain message with "Try again". */
  fallback?: (retry: () => void) => ReactNode;
  /** A change of this value (e.g. the address) clears the failure: the new page loads afresh. */
  resetKey?: unknown;
  /** The message of the default fallback; `common:loadError` by default. */
  message?: string;
}

/**
 * Catches a part of the page that fails to load or render and shows, from code already loaded, a
 * plain message and a "Try again" button instead of a blank page (docs/product/portals.md#failure-states). What the
 * visitor typed lives above the boundary (the wizard's state, the form), so nothing is lost.
 */
export class LoadBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  retry = () => this.setState({ failed: false });

  override render() {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback ? (
      this.props.fallback(this.retry)
    ) : (
      <LoadFailed retry={this.retry} message={this.props.message} />
    );
  }
}

/** The default fallback: an alert with the message and a button that tries again. */
function LoadFailed({ retry, message }: { retry: () => void; message?: string }) {
  const { t } = useTranslation("common");
  return (
    <div
      role="alert"
      className="mx-auto my-8 max-w-xl rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
    >
      <p>{message ?? t("loadError")}</p>
      <button
        type="button"
        onClick={retry}
        className="mt-3 rounded-md border border-red-300 bg-white px-3 py-1.5 font-medium hover:bg-red-100"
      >
        {t("retry")}
      </button>
    </div>
  );
}

/**
 * The toasts without Radix, for when the toast area's own module cannot be loaded: the message of
 * a failure (often the very failure that kept the module from loading) still reaches the visitor,
 * in a live region with a close button.
 */
export function PlainToasts() {
  const toasts = useToasts();
  const { t } = useTranslation("common");
  return (
    <ol
      aria-label={t("toast.notifications")}
      className="no-print fixed right-0 bottom-0 z-[100] flex w-full max-w-[420px] flex-col gap-2 p-4"
    >
      {toasts.map((item) => (
        <li
          key={item.id}
          role={item.variant === "destructive" ? "alert" : "status"}
          className={
            item.variant === "destructive"
              ? "relative rounded-lg border border-red-300 bg-red-50 p-4 pr-10 text-red-900 shadow-lg"
              : "relative rounded-lg border border-slate-200 bg-white p-4 pr-10 text-slate-900 shadow-lg"
          }
        >
          <p className="font-semibold">{item.title}</p>
          {item.description ? <p className="mt-1 text-sm">{item.description}</p> : null}
          <button
            type="button"
            aria-label={t("toast.close")}
            onClick={() => dismiss(item.id)}
            className="absolute top-3 right-3 rounded p-1 hover:bg-black/5"
          >
            ×
          </button>
        </li>
      ))}
    </ol>
  );
}
