import { formatDate, formatDayMonth } from "../../shared/dates";
import { formatMoney } from "../../shared/money";
import { useLanguage } from "./catalogue";

export { formatDate, formatDayMonth };

/** Money and date formatters bound to the current UI language. */
export function useFormat() {
  const language = useLanguage();
  return {
    language,
    money: (cents: number) => formatMoney(cents, language),
    date: (iso: string) => formatDate(iso, language),
    dayMonth: (iso: string) => formatDayMonth(iso, language),
  };
}
