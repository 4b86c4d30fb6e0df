/**
 * Money in and out per day as bars (uPlot: a maintained chart library of a few tens of KB, drawn on a canvas), with
 * the same figures as a table below it for screen readers and for copying. The chart's numbers are for drawing only;
 * every figure an operator reads is the API's decimal string.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AmountText } from '../../components/AmountText';

export interface MoneyDay {
  day: string;
  in: string;
  out: string;
}

const cssColor = (element: Element, name: string, fallback: string) => getComputedStyle(element).getPropertyValue(name).trim() || fallback;
const HEIGHT = 220;

/** Draws the bars into `element` and keeps them as wide as it; returns what takes them down. */
function drawChart(UPlot: typeof uPlot, element: HTMLDivElement, days: readonly MoneyDay[], labels: { day: string; in: string; out: string }): () => void {
  const bars = UPlot.paths.bars?.({ size: [0.4, 24], gap: 1 });
  const inColor = cssColor(element, '--app-color-success', '#00b578');
  const outColor = cssColor(element, '--app-color-brand', '#1677ff');
  const text = cssColor(element, '--app-color-text', '#333');
  const grid = cssColor(element, '--app-color-border', '#eee');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const plot = new UPlot(
    {
      width: element.clientWidth,
      height: HEIGHT,
      scales: { x: { time: false } },
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: labels.day, value: (_, index) => (index === null ? '' : (days[index]?.day ?? '')) },
        { label: labels.in, stroke: inColor, fill: inColor, ...(bars ? { paths: bars } : {}) },
        { label: labels.out, stroke: outColor, fill: outColor, ...(bars ? { paths: bars } : {}) },
      ],
      axes: [{ ...axis, values: (_, ticks) => ticks.map((tick) => days[tick]?.day.slice(5) ?? '') }, { ...axis, size: 64 }],
    },
    // Numbers for drawing only: the figures shown are the API's decimal strings.
    [days.map((_, index) => index), days.map((day) => Number(day.in)), days.map((day) => Number(day.out))],
    element,
  );
  const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
  resize.observe(element);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}

export function MoneyChart({ days }: { days: readonly MoneyDay[] }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const box = useRef<HTMLDivElement>(null);
  const dayLabel = t('overview.day');
  const inLabel = t('overview.moneyIn');
  const outLabel = t('overview.moneyOut');
  // The canvas is uPlot's, made and resized here: a DOM integration, not flow state.
  useEffect(() => {
    const element = box.current;
    // Without a 2D canvas (switched off, or a test's DOM) the table below carries the figures alone.
    if (!element || typeof CanvasRenderingContext2D === 'undefined') return undefined;
    let takeDown: (() => void) | undefined;
    let gone = false;
    // uPlot loads with the chart, not with the desk: only finance's overview draws one.
    void import('uplot').then(({ default: UPlot }) => {
      if (!gone) takeDown = drawChart(UPlot, element, days, { day: dayLabel, in: inLabel, out: outLabel });
    });
    return () => {
      gone = true;
      takeDown?.();
    };
  }, [days, dayLabel, inLabel, outLabel]);
  return (
    <figure className="desk-chart">
      <div ref={box} role="img" aria-label={t('overview.chartLabel', { days: days.length })} />
      <details>
        <summary>{t('overview.asTable')}</summary>
        <table className="desk-table">
          <thead>
            <tr>
              <th scope="col">{t('overview.day')}</th>
              <th scope="col" className="desk-number">
                {inLabel}
              </th>
              <th scope="col" className="desk-number">
                {outLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                <td className="desk-number">
                  <AmountText amount={day.in} locale={locale} />
                </td>
                <td className="desk-number">
                  <AmountText amount={day.out} locale={locale} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
