//! The dashboard page: the period chooser, the totals (puzzles, solved at
//! the first try, solved on a replay, the puzzles' average rating, the
//! performance) and the success per theme, each theme a link to train it.
import { h, type VNode } from 'snabbdom';
import { type Key, t } from '../i18n.js';
import { authPath } from '../route.js';
import type { Results } from './api.js';
import type { DashboardCtrl } from './dashboard.js';
import { PERIODS } from './model.js';
import { themeName } from './themes.js';
import { puzzleNav } from './view.js';

const PERIOD_NAMES: Record<(typeof PERIODS)[number], Key> = { 7: 'puzzle.dashboard.days7', 30: 'puzzle.dashboard.days30', 90: 'puzzle.dashboard.days90' };

/** The share of first-try wins, as a whole percentage. */
export function successRate(r: Results): number {
  return r.nb === 0 ? 0 : Math.round((100 * r.firstWins) / r.nb);
}

function totals(r: Results): VNode {
  const item = (id: string, label: string, value: string | number) => h('div.puzzle-stat', { attrs: { 'data-testid': id } }, [h('dt', label), h('dd', String(value))]);
  return h('dl.puzzle-stats', [
    item('dashboard-nb', t('puzzle.dashboard.nb'), r.nb),
    item('dashboard-success', t('puzzle.dashboard.success'), `${successRate(r)} %`),
    item('dashboard-first', t('puzzle.dashboard.firstWins'), r.firstWins),
    item('dashboard-replay', t('puzzle.dashboard.replayWins'), r.replayWins),
    item('dashboard-avg', t('puzzle.dashboard.ratingAvg'), r.puzzleRatingAvg),
    item('dashboard-perf', t('puzzle.dashboard.performance'), r.performance),
  ]);
}

/** The dashboard page. */
export function dashboardView(ctrl: DashboardCtrl): VNode {
  const head = [puzzleNav('/training/dashboard'), h('h1', t('puzzle.dashboard.title'))];
  if (!ctrl.loggedIn) {
    return h('section.card.puzzle-dashboard', { attrs: { 'data-testid': 'puzzle-dashboard' } }, [
      ...head,
      h('p', { attrs: { 'data-testid': 'dashboard-login' } }, [t('puzzle.dashboard.login'), ' ', h('a', { attrs: { href: authPath('login', '/training/dashboard') } }, t('nav.login'))]),
    ]);
  }
  const d = ctrl.data;
  const themes = d ? Object.values(d.themes).sort((a, b) => b.results.nb - a.results.nb || a.theme.localeCompare(b.theme)) : [];
  return h('section.card.puzzle-dashboard', { attrs: { 'data-testid': 'puzzle-dashboard' } }, [
    ...head,
    h(
      'nav.puzzle-periods',
      { attrs: { 'aria-label': t('puzzle.dashboard.period') } },
      PERIODS.map((n) =>
        h('a.button.small', { class: { primary: n === ctrl.days }, attrs: { href: `/training/dashboard?days=${n}`, 'data-testid': `dashboard-days-${n}`, ...(n === ctrl.days ? { 'aria-current': 'page' } : {}) } }, t(PERIOD_NAMES[n])),
      ),
    ),
    ctrl.error ? h('p.form-error', { attrs: { role: 'alert' } }, ctrl.error) : null,
    !d && !ctrl.error ? h('p.muted', { attrs: { 'aria-busy': 'true' } }, '…') : null,
    d ? totals(d.global) : null,
    d && d.global.nb === 0 ? h('p.muted', { attrs: { 'data-testid': 'dashboard-empty' } }, [t('puzzle.dashboard.empty'), ' ', h('a', { attrs: { href: '/training' } }, t('puzzle.nav.train'))]) : null,
    themes.length > 0
      ? h('table.puzzle-theme-table', { attrs: { 'data-testid': 'dashboard-themes' } }, [
          h('thead', [h('tr', [h('th', t('puzzle.angle')), h('th', t('puzzle.dashboard.nb')), h('th', t('puzzle.dashboard.success')), h('th', t('puzzle.dashboard.performance'))])]),
          h(
            'tbody',
            themes.map((x) =>
              h('tr', { attrs: { 'data-testid': 'dashboard-theme', 'data-theme': x.theme } }, [
                h('td', [h('a', { attrs: { href: `/training/${encodeURIComponent(x.theme)}` } }, themeName(x.theme))]),
                h('td', String(x.results.nb)),
                h('td', [h('span.puzzle-bar', { attrs: { 'aria-hidden': 'true' } }, [h('meter', { attrs: { min: 0, max: 100, value: successRate(x.results) } })]), ` ${successRate(x.results)} %`]),
                h('td', String(x.results.performance)),
              ]),
            ),
          ),
        ])
      : null,
  ]);
}
