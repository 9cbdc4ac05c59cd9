import {
  Area,
  AreaChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { HistoryRange } from '../../../shared/types';
import { formatAxisTick, formatDateTime, formatValue, privacyMask } from '../../../shared/format';
import { chartPalette } from '../lib/palette';

/** Axis labels by range: hours within a day, day and hour within a week, dates beyond. */
function historyTick(time: number, range: HistoryRange): string {
  const text = formatDateTime(time);
  if (range === 'day') return text.slice(11, 16);
  if (range === 'week') return `${text.slice(5, 10)} ${text.slice(11, 13)}h`;
  if (range === 'month') return text.slice(5, 10);
  return text.slice(0, 10);
}

export function AllocationDonut({ slices }: { slices: { asset: string; plot: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height={200}>
      <PieChart>
        <Pie
          data={slices}
          dataKey="plot"
          nameKey="asset"
          innerRadius={55}
          outerRadius={90}
          paddingAngle={1}
          isAnimationActive={false}
          stroke="none"
        >
          {slices.map((slice, i) => (
            <Cell key={slice.asset} fill={chartPalette[i % chartPalette.length]} />
          ))}
        </Pie>
      </PieChart>
    </ResponsiveContainer>
  );
}

export function ValueChart(props: {
  points: { time: number; plot: number; value: string; estimated: boolean }[];
  /** Points before this time are estimates: drawn dashed and pale, named so in the tooltip. */
  estimatedUntil: number | null;
  range: HistoryRange;
  quote: string;
  privacy: boolean;
}) {
  const { points, range, quote, estimatedUntil } = props;
  const settings = { privacyMode: props.privacy };
  // Two series that share the point where the estimate ends, so the line is one continuous curve.
  const firstRecorded = points.findIndex((p) => !p.estimated);
  const series = points.map((p, i) => ({
    ...p,
    estimate: p.estimated || i === firstRecorded ? p.plot : undefined,
    recorded: p.estimated ? undefined : p.plot,
  }));
  const plotted = points.map((p) => p.plot);
  const span = plotted.length > 0 ? Math.max(...plotted) - Math.min(...plotted) : 0;
  return (
    <ResponsiveContainer width="100%" height={230}>
      <AreaChart data={series} margin={{ top: 8, right: 12, left: 0, bottom: 0 }}>
        <defs>
          <linearGradient id="valueFill" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="#3b82f6" stopOpacity={0.35} />
            <stop offset="100%" stopColor="#3b82f6" stopOpacity={0} />
          </linearGradient>
        </defs>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" vertical={false} />
        <XAxis
          dataKey="time"
          type="number"
          domain={['dataMin', 'dataMax']}
          scale="time"
          tickFormatter={(t: number) => historyTick(t, range)}
          minTickGap={48}
          stroke="var(--muted)"
          fontSize={11}
        />
        <YAxis
          dataKey="plot"
          width={60}
          domain={['auto', 'auto']}
          tickFormatter={(v: number) =>
            settings.privacyMode ? privacyMask : formatAxisTick(v, span)
          }
          stroke="var(--muted)"
          fontSize={11}
        />
        <Tooltip
          contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
          labelFormatter={(t) => formatDateTime(Number(t))}
          formatter={(_v, name, item) => {
            const point = item.payload as { value: string; estimated: boolean };
            // The shared point is drawn by both series; it is named once, as recorded.
            if (name === 'estimate' && !point.estimated) return [null, null];
            return [
              settings.privacyMode ? privacyMask : formatValue(point.value, quote),
              point.estimated ? 'Estimated value' : 'Value',
            ];
          }}
        />
        {estimatedUntil !== null && (
          <Area
            type="monotone"
            dataKey="estimate"
            name="estimate"
            stroke="#94a3b8"
            strokeWidth={2}
            strokeDasharray="5 4"
            fill="none"
            connectNulls={false}
            isAnimationActive={false}
          />
        )}
        <Area
          type="monotone"
          dataKey="recorded"
          name="recorded"
          stroke="#3b82f6"
          strokeWidth={2}
          fill="url(#valueFill)"
          connectNulls
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
