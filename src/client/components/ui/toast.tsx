import * as RadixToast from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cn } from "./cn";
import { dismiss, useToasts } from "./toast-store";

export { type ToastMessage, toast } from "./toast-store";

/** Renders the toast area; place once, inside the i18n provider (App loads it lazily on the first toast). */

/** Renders the toast area. */
export function Toaster() {
  const toasts = useToasts();
  const { t } = useTranslation("common");
  return (
    <RadixToast.Provider
      duration={5000}
      swipeDirection="right"
      swipeThreshold={50}
      label={t("toast.notifications")}
    >
      {toasts.map((item) => (
        <RadixToast.Root
          key={item.id}
          onOpenChange={(open) => {
            if (!open) dismiss(item.id);
          }}
          className={cn(
            "no-print relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg",
            item.variant === "destructive" && "border-red-300 bg-red-50 text-red-900",
            item.variant === "success" && "border-emerald-300 bg-emerald-50 text-emerald-900",
            (!item.variant || item.variant === "default") && "border-slate-200 bg-white text-slate-900",
          )}
        >
          <div>
            <RadixToast.Title className="font-semibold">{item.title}</RadixToast.Title>
            {item.description ? (
              <RadixToast.Description className="mt-1 text-sm">{item.description}</RadixToast.Description>
            ) : null}
          </div>
          <RadixToast.Close
            aria-label={t("toast.close")}
            className="absolute top-3 right-3 rounded p-1 hover:bg-black/5"
          >
            <X aria-hidden="true" className="h-4 w-4" />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport
        hotkey={["F8"]}
        className="fixed right-0 bottom-0 z-[100] flex w-full max-w-[420px] flex-col gap-2 p-4 outline-none"
      />
    </RadixToast.Provider>
  );
}
export default Toaster;
