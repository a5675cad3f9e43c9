//! The profile's rating graph: one line per speed over the days with a
//! rated game (lichess's rating history), drawn as an SVG with the lowest
//! and highest ratings and the first and last dates written beside it.
import { h, type VNode } from 'snabbdom';
import type { RatingHistory } from '../api.js';
import { type Key, lang, t } from '../i18n.js';

const W = 600;
const H = 180;
const PAD = 8;

/** The speed key of a lichess perf name (`Blitz` → `blitz`). */
function speedOf(name: string): string {
  return name.toLowerCase();
}

/** The graph; null when no rated game was ever played. */
export function ratingGraph(history: RatingHistory | null): VNode | null {
  const lines = (history ?? []).filter((l) => l.points.length > 0);
  if (lines.length === 0) return null;
  const at = (p: [number, number, number, number]) => Date.UTC(p[0], p[1], p[2]);
  const all = lines.flatMap((l) => l.points);
  const [t0, t1] = [Math.min(...all.map(at)), Math.max(...all.map(at))];
  const [r0, r1] = [Math.min(...all.map((p) => p[3])), Math.max(...all.map((p) => p[3]))];
  const x = (ms: number) => PAD + (t1 === t0 ? (W - 2 * PAD) / 2 : ((ms - t0) / (t1 - t0)) * (W - 2 * PAD));
  const y = (r: number) => PAD + (r1 === r0 ? (H - 2 * PAD) / 2 : ((r1 - r) / (r1 - r0)) * (H - 2 * PAD));
  const day = new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeZone: 'UTC' });
  return h('figure.profile-graph', { attrs: { 'data-testid': 'profile-rating-graph' } }, [
    h('figcaption', t('profile.graph')),
    h(
      'svg',
      { attrs: { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('profile.graph') } },
      lines.map((l) => {
        const pts = l.points.map((p) => `${x(at(p)).toFixed(1)},${y(p[3]).toFixed(1)}`);
        const attrs = { 'data-speed': speedOf(l.name), 'data-points': l.points.length };
        return l.points.length === 1
          ? h(`circle.graph-${speedOf(l.name)}`, { attrs: { ...attrs, cx: pts[0]!.split(',')[0]!, cy: pts[0]!.split(',')[1]!, r: 4 } })
          : h(`polyline.graph-${speedOf(l.name)}`, { attrs: { ...attrs, points: pts.join(' '), fill: 'none' } });
      }),
    ),
    h('p.muted.small.graph-scale', [
      `${t0 === t1 ? day.format(t0) : `${day.format(t0)} – ${day.format(t1)}`} · ${r0 === r1 ? r0 : `${r0}–${r1}`} · `,
      ...lines.flatMap((l, i) => [i > 0 ? ', ' : '', h(`span.graph-key.graph-${speedOf(l.name)}`, t(`speed.${speedOf(l.name)}` as Key))]),
    ]),
  ]);
}
