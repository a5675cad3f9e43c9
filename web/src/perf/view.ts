//! The perf page: the rating at one speed with its percentile, the
//! highest and lowest ratings, the counts, the runs of wins, losses and
//! games, and the best wins and worst losses, each linked to its game.
import { h, type VNode } from 'snabbdom';
import { type PerfResult, type PerfRun, profilePath } from '../api.js';
import { dateTime } from '../home/view.js';
import { type Key, t } from '../i18n.js';
import type { PerfCtrl } from './ctrl.js';

function gameLink(id: string, text: string): VNode {
  return h('a', { attrs: { href: `/game/${encodeURIComponent(id)}` } }, text);
}

function row(testid: string, label: string, value: Array<VNode | string> | string): VNode {
  return h('tr', { attrs: { 'data-testid': testid } }, [h('th', { attrs: { scope: 'row' } }, label), h('td', value)]);
}

/** A run as "current N · longest M", the longest linked to its first game. */
function runText(cur: PerfRun, max: PerfRun): Array<VNode | string> {
  return [t('perf.current', { n: cur.v }), ' · ', max.from ? gameLink(max.from.gameId, t('perf.longest', { n: max.v })) : t('perf.longest', { n: max.v })];
}

function results(testid: string, title: string, list: PerfResult[]): VNode {
  return h('section', { attrs: { 'data-testid': testid } }, [
    h('h2', title),
    list.length === 0
      ? h('p.muted', t('perf.none'))
      : h(
          'ul.perf-results',
          list.map((r) =>
            h('li', { attrs: { 'data-testid': `${testid}-row`, 'data-game': r.gameId } }, [
              h('strong', String(r.opRating)),
              ' ',
              h('a', { attrs: { href: profilePath(r.opId.name) } }, r.opId.name),
              ' · ',
              gameLink(r.gameId, dateTime(r.at)),
            ]),
          ),
        ),
  ]);
}

/** Seconds as hours and minutes ("2 h 05 min"). */
function duration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return t('perf.duration', { h: hours, m: String(minutes).padStart(2, '0') });
}

/** The whole perf page. */
export function perfView(ctrl: PerfCtrl): VNode {
  if (ctrl.error) {
    return h('div.card.not-found', { attrs: { 'data-testid': 'perf-error' } }, [h('h1', ctrl.error === 'missing' ? t('profile.notFound') : t('error.network'))]);
  }
  const p = ctrl.stat;
  if (!p) return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
  const s = p.stat;
  const speed = t(`speed.${ctrl.speed}` as Key);
  const rating = `${Math.round(p.perf.glicko.rating)}${p.perf.glicko.provisional ? '?' : ''}`;
  return h('section.card.perf', { attrs: { 'data-testid': 'perf' } }, [
    h('p', [h('a', { attrs: { href: profilePath(p.user.name), 'data-testid': 'perf-back' } }, t('perf.back', { name: p.user.name }))]),
    h('h1', t('perf.title', { name: p.user.name, speed })),
    h('p.perf-rating', { attrs: { 'data-testid': 'perf-rating' } }, [h('strong', rating), ' ', h('span.muted', t('perf.percentile', { p: p.percentile, speed }))]),
    h('table.perf-table', [
      h('tbody', [
        row('perf-highest', t('perf.highest'), s.highest ? [gameLink(s.highest.gameId, String(s.highest.int)), ' · ', dateTime(s.highest.at)] : '–'),
        row('perf-lowest', t('perf.lowest'), s.lowest ? [gameLink(s.lowest.gameId, String(s.lowest.int)), ' · ', dateTime(s.lowest.at)] : '–'),
        row('perf-count', t('perf.games'), t('perf.count', { all: s.count.all, rated: s.count.rated })),
        row('perf-results', t('perf.results'), t('profile.results', { win: s.count.win, draw: s.count.draw, loss: s.count.loss })),
        row('perf-tour', t('perf.tournament'), `${s.count.tour} · ${t('perf.berserk', { n: s.count.berserk })}`),
        row('perf-opponents', t('perf.opponents'), s.count.rated > 0 ? String(Math.round(s.count.opAvg)) : '–'),
        row('perf-time', t('perf.time'), duration(s.count.seconds)),
        row('perf-win-streak', t('perf.winStreak'), runText(s.resultStreak.win.cur, s.resultStreak.win.max)),
        row('perf-loss-streak', t('perf.lossStreak'), runText(s.resultStreak.loss.cur, s.resultStreak.loss.max)),
        row('perf-play-streak', t('perf.playStreak'), runText(s.playStreak.nb.cur, s.playStreak.nb.max)),
      ]),
    ]),
    results('perf-best-wins', t('perf.bestWins'), s.bestWins.results),
    results('perf-worst-losses', t('perf.worstLosses'), s.worstLosses.results),
  ]);
}
