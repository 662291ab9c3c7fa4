/**
 * Money in and out of one bank account by month, as an inline SVG bar chart: two bars a month
 * (in, out), a scale on the left, the months below, each bar titled with its amount. Inline
 * markup, no script and no chart library (the console loads nothing from elsewhere).
 */
import { escapeHtml } from '../escapeHtml';

export interface MonthTotals {
  month: string;
  moneyIn: number;
  moneyOut: number;
}

const width = 560;
const height = 180;
const left = 64;
const bottom = 24;
const top = 10;

const money = (amount: number, currency: string) =>
  `${amount.toLocaleString('en-GB', { maximumFractionDigits: 0 })} ${currency}`;

export function moneyChart(months: readonly MonthTotals[], currency: string, label: string): string {
  if (months.length === 0) return '<p class="muted">No transactions.</p>';
  const max = Math.max(1, ...months.flatMap((m) => [m.moneyIn, m.moneyOut]));
  const plot = height - bottom - top;
  const slot = (width - left) / months.length;
  const bar = Math.min(22, slot / 2.5);
  const y = (amount: number) => top + plot - (amount / max) * plot;
  const bars = months
    .map((m, i) => {
      const x = left + i * slot + slot / 2;
      const rect = (amount: number, dx: number, kind: 'in' | 'out') =>
        `<rect class="money-${kind}" x="${(x + dx).toFixed(1)}" y="${y(amount).toFixed(1)}" ` +
        `width="${bar.toFixed(1)}" height="${(top + plot - y(amount)).toFixed(1)}" ` +
        `fill="${kind === 'in' ? '#2f7d4f' : '#b5473a'}">` +
        `<title>${escapeHtml(`${m.month}: ${kind} ${money(amount, currency)}`)}</title></rect>`;
      return (
        `${rect(m.moneyIn, -bar - 1, 'in')}${rect(m.moneyOut, 1, 'out')}` +
        `<text x="${x.toFixed(1)}" y="${height - 6}" text-anchor="middle" font-size="11" fill="#445">` +
        `${escapeHtml(m.month)}</text>`
      );
    })
    .join('');
  const scale = [0, 0.5, 1]
    .map(
      (f) =>
        `<line x1="${left}" x2="${width}" y1="${y(max * f).toFixed(1)}" y2="${y(max * f).toFixed(1)}" stroke="#dde"/>` +
        `<text x="${left - 6}" y="${(y(max * f) + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#445">` +
        `${escapeHtml(money(max * f, ''))}</text>`,
    )
    .join('');
  return (
    `<figure class="chart"><svg role="img" aria-label="${escapeHtml(label)}" viewBox="0 0 ${width} ${height}" ` +
    `width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${scale}${bars}</svg>\n` +
    '<figcaption><span class="key in"></span> money in <span class="key out"></span> money out, ' +
    `by month (${escapeHtml(currency)})</figcaption></figure>`
  );
}
