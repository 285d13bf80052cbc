import { ArrowUp } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** A "Back to top" button that appears after scrolling one screen down. */
export function ScrollToTop() {
  const { t } = useTranslation("common");
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > window.innerHeight);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}
      className="no-print fixed right-4 bottom-24 z-30 rounded-full bg-brand-800 p-3 text-white shadow-lg hover:bg-brand-700"
      aria-label={t("scrollTop")}
    >
      <ArrowUp aria-hidden="true" className="h-5 w-5" />
    </button>
  );
}
