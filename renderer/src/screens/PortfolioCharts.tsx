import { memo } from 'react';
import {
  Area,
  AreaChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { HistoryRange } from '../../../shared/types';
import { formatDateTime, formatValue, privacyMask } from '../../../shared/format';
import { chartPalette } from '../lib/palette';
import { useDrawnValue } from '../lib/query';
import { valueAxisTick } from '../lib/value-history';

/**
 * The grid draws no vertical lines, but recharts' grid works out where they would go unless told:
 * the X axis's ticks again, each label measured in the DOM (a forced layout), at every redraw.
 */
const noVerticalLines = (): number[] => [];

/** Axis labels by range: hours within a day, day and hour within a week, dates beyond. */
function historyTick(time: number, range: HistoryRange): string {
  const text = formatDateTime(time);
  if (range === 'day') return text.slice(11, 16);
  if (range === 'week') return `${text.slice(5, 10)} ${text.slice(11, 13)}h`;
  if (range === 'month') return text.slice(5, 10);
  return text.slice(0, 10);
}

type Slices = { asset: string; plot: number }[];

// Memoised: a render of the Portfolio that brings no new slices or points does not redraw them.
// Each chart draws its data as useDrawnValue gives it: once the page's answers are in.
export const AllocationDonut = memo(function AllocationDonut({ slices }: { slices: Slices }) {
  return <DonutDrawing slices={useDrawnValue(slices)} />;
});

const DonutDrawing = memo(function DonutDrawing({ slices }: { slices: Slices }) {
  return (
    <ResponsiveContainer width="100%" height={200}>
      <PieChart title="Allocation by asset">
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
});

interface ValueChartProps {
  points: { time: number; plot: number; value: string; onInferred: boolean }[];
  /** The span whose values depend on where inferred entries are placed: shaded. */
  inferred: { from: number; to: number } | null;
  range: HistoryRange;
  quote: string;
  privacy: boolean;
}

export const ValueChart = memo(function ValueChart(props: ValueChartProps) {
  const points = useDrawnValue(props.points);
  const inferred = useDrawnValue(props.inferred);
  return <ValueDrawing {...props} points={points} inferred={inferred} />;
});

const ValueDrawing = memo(function ValueDrawing(props: ValueChartProps) {
  const { points, range, quote, inferred, privacy } = props;
  const plotted = points.map((p) => p.plot);
  const span = plotted.length > 0 ? Math.max(...plotted) - Math.min(...plotted) : 0;
  return (
    <ResponsiveContainer width="100%" height={230}>
      <AreaChart
        data={points}
        margin={{ top: 8, right: 12, left: 0, bottom: 0 }}
        title={`Value history in ${quote.toUpperCase()}`}
      >
        <defs>
          <linearGradient id="valueFill" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="#3b82f6" stopOpacity={0.35} />
            <stop offset="100%" stopColor="#3b82f6" stopOpacity={0} />
          </linearGradient>
        </defs>
        <CartesianGrid
          strokeDasharray="3 3"
          stroke="var(--grid)"
          vertical={false}
          verticalCoordinatesGenerator={noVerticalLines}
        />
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
          tickFormatter={(v: number) => (privacy ? privacyMask : valueAxisTick(v, span, quote))}
          stroke="var(--muted)"
          fontSize={11}
        />
        {inferred && (
          <ReferenceArea
            x1={inferred.from}
            x2={inferred.to}
            fill="#f59e0b"
            fillOpacity={0.12}
            stroke="#f59e0b"
            strokeOpacity={0.4}
            strokeDasharray="4 3"
            ifOverflow="hidden"
          />
        )}
        <Tooltip
          contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
          labelFormatter={(t) => formatDateTime(Number(t))}
          formatter={(_v, _name, item) => {
            const point = item.payload as { value: string; onInferred: boolean };
            return [
              privacy ? privacyMask : formatValue(point.value, quote),
              point.onInferred ? 'Value (rests on inferred entries)' : 'Value',
            ];
          }}
        />
        <Area
          type="linear"
          dataKey="plot"
          name="value"
          stroke="#3b82f6"
          strokeWidth={2}
          fill="url(#valueFill)"
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
});
