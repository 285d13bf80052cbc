import { useTranslation } from "react-i18next";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { StatsBucket } from "../../../../shared/schemas/affiliate-portal";
import { useFormat } from "../../../lib/format";

/**
 * The statistics over time as a chart (recharts, loaded only by the overview, lazily). Hidden from
 * assistive technology: the page's table holds the same numbers (docs/product/codes-and-partners.md#code-holds).
 */
export default function StatsChart({ buckets }: { buckets: StatsBucket[] }) {
  const { t } = useTranslation("affiliatePortal");
  const format = useFormat();
  const data = buckets.map((b) => ({ ...b, label: format.dayMonth(b.start) }));
  return (
    <div aria-hidden="true" className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        {/* No keyboard layer: the chart is hidden from assistive technology and must hold no focus stop. */}
        <ComposedChart
          data={data}
          margin={{ top: 8, right: 8, bottom: 8, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={36} />
          <Tooltip />
          {/* Legend text in the page's text colour: the light series colours are too pale for text. */}
          <Legend formatter={(value) => <span className="text-slate-800">{value}</span>} />
          <Bar dataKey="clicks" name={t("dashboard.clicks")} fill="#93c5fd" />
          <Line
            dataKey="applications"
            name={t("dashboard.applications")}
            stroke="#1e3a8a"
            strokeWidth={2}
            dot={false}
          />
          <Line
            dataKey="paidEnrolments"
            name={t("dashboard.paidEnrolments")}
            stroke="#15803d"
            strokeWidth={2}
            dot={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
