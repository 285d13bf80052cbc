import { LOCALE_OF } from "../../shared/i18n/languages";
import { useFormat } from "./format";

/** The size of a file in the UI language (kB below 1 MB, else MB with one decimal). */
export function useFileSize() {
  const { language } = useFormat();
  return (bytes: number) => {
    const mb = bytes >= 1024 * 1024;
    return new Intl.NumberFormat(LOCALE_OF[language], {
      style: "unit",
      unit: mb ? "megabyte" : "kilobyte",
      maximumFractionDigits: mb ? 1 : 0,
    }).format(mb ? bytes / (1024 * 1024) : Math.max(1, Math.round(bytes / 1024)));
  };
}
