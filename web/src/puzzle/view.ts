//! The trainer page as a function of its controller: the board, the
//! feedback line, hint / solution / retry / next, the puzzle's rating and
//! themes and the player's rating change once it is over, the difficulty
//! and theme selectors, and links to the other puzzle pages.
import { h, type VNode } from 'snabbdom';
import { authPath } from '../route.js';
import { t } from '../i18n.js';
import { DIFFICULTIES, type Difficulty, type Glicko } from './api.js';
import type { TrainerCtrl } from './ctrl.js';
import { signed } from './model.js';
import { difficultyKey, type PuzzleRound, puzzleButton, roundFeedbackView } from './round.js';
import { angleName, COMMON_ANGLES, themeName } from './themes.js';

/** A puzzle rating as shown: `?` after it while provisional, as on lichess. */
function ratingText(g: Glicko): string {
  return `${Math.round(g.rating)}${g.provisional ? '?' : ''}`;
}

/** Links to the puzzle pages, `current` marked. */
export function puzzleNav(current: string): VNode {
  const links: Array<[string, string, string]> = [
    ['/training', t('puzzle.nav.train'), 'puzzle-nav-train'],
    ['/training/daily', t('puzzle.daily'), 'puzzle-nav-daily'],
    ['/training/themes', t('puzzle.themes.title'), 'puzzle-nav-themes'],
    ['/streak', t('puzzle.streak.title'), 'puzzle-nav-streak'],
    ['/storm', t('puzzle.storm.title'), 'puzzle-nav-storm'],
    ['/training/dashboard', t('puzzle.dashboard.title'), 'puzzle-nav-dashboard'],
  ];
  return h(
    'nav.puzzle-nav',
    { attrs: { 'aria-label': t('puzzle.nav.label') } },
    links.map(([href, label, id]) => h('a', { class: { active: href === current }, attrs: { href, 'data-testid': id, ...(href === current ? { 'aria-current': 'page' } : {}) } }, label)),
  );
}

function actions(ctrl: TrainerCtrl, r: PuzzleRound | null): VNode {
  const s = r?.state;
  const over = r?.outcome !== null && r?.outcome !== undefined;
  return h('div.ex-actions.puzzle-actions', [
    s === 'play' ? puzzleButton(t('puzzle.hint'), () => r!.showHint(), 'puzzle-hint', { disabled: r!.hint !== null }) : null,
    s === 'play' || s === 'wait' || s === 'fail' ? puzzleButton(t('puzzle.viewSolution'), () => r!.viewSolution(), 'puzzle-solution', { disabled: s === 'wait' }) : null,
    s === 'fail' || (s === 'view' && r!.outcome !== 'view') ? puzzleButton(t('puzzle.retry'), () => r!.retry(), 'puzzle-retry') : null,
    over || ctrl.error ? puzzleButton(ctrl.single ? t('puzzle.toTrainer') : t('puzzle.next'), () => ctrl.next(), 'puzzle-next', { primary: true }) : null,
  ]);
}

function infoView(ctrl: TrainerCtrl, r: PuzzleRound): VNode | null {
  if (r.outcome === null) return null;
  const p = r.data.puzzle;
  const diff = ctrl.recorded?.ratingDiff;
  return h('div.puzzle-info', { attrs: { 'data-testid': 'puzzle-info' } }, [
    h('p', [h('a', { attrs: { href: `/training/${encodeURIComponent(p.id)}`, 'data-testid': 'puzzle-link' } }, t('puzzle.info.id', { id: p.id })), ' · ', h('span', { attrs: { 'data-testid': 'puzzle-rating' } }, t('puzzle.info.rating', { rating: p.rating })), ' · ', t('puzzle.info.plays', { plays: p.plays })]),
    h(
      'p.puzzle-themes',
      { attrs: { 'data-testid': 'puzzle-themes' } },
      p.themes.flatMap((k, i) => [i > 0 ? ', ' : '', h('a', { attrs: { href: `/training/${encodeURIComponent(k)}` } }, themeName(k))]),
    ),
    diff !== undefined
      ? h('p.puzzle-rating-diff', { class: { up: diff > 0, down: diff < 0 }, attrs: { 'data-testid': 'puzzle-rating-diff' } }, t('puzzle.ratingDiff', { diff: signed(diff), rating: ctrl.glicko ? ratingText(ctrl.glicko) : '?' }))
      : ctrl.sending
        ? h('p.muted', t('puzzle.sending'))
        : !ctrl.rated
          ? h('p.muted', { attrs: { 'data-testid': 'puzzle-unrated' } }, [t('puzzle.unrated'), ' ', h('a', { attrs: { href: authPath('login', location.pathname) } }, t('nav.login'))])
          : null,
  ]);
}

function select(id: string, label: string, value: string, options: ReadonlyArray<[string, string]>, change: (v: string) => void): VNode {
  return h('label.puzzle-select', [
    h('span', label),
    h(
      'select',
      { attrs: { 'data-testid': id }, on: { change: (e: Event) => change((e.target as HTMLSelectElement).value) } },
      options.map(([v, text]) => h('option', { attrs: { value: v }, props: { selected: v === value } }, text)),
    ),
  ]);
}

function settings(ctrl: TrainerCtrl): VNode | null {
  if (ctrl.single) return null;
  const angles = COMMON_ANGLES.includes(ctrl.angle) ? COMMON_ANGLES : [...COMMON_ANGLES, ctrl.angle];
  return h('div.puzzle-settings', [
    select(
      'puzzle-difficulty',
      t('puzzle.difficulty'),
      ctrl.difficulty,
      DIFFICULTIES.map((d) => [d, t(difficultyKey(d))]),
      (v) => ctrl.setDifficulty(v as Difficulty),
    ),
    select(
      'puzzle-angle',
      t('puzzle.angle'),
      ctrl.angle,
      angles.map((a) => [a, angleName(a)]),
      (v) => ctrl.setAngle(v),
    ),
  ]);
}

/** The trainer page. */
export function trainerView(ctrl: TrainerCtrl): VNode {
  const r = ctrl.round;
  return h('section.puzzle-page', { attrs: { 'data-testid': 'puzzle-page' } }, [
    h('div.puzzle-board-col', [r ? r.vnode() : h('div.puzzle-board.puzzle-board-empty', { attrs: { 'data-testid': 'puzzle-board', 'data-state': 'loading' } })]),
    h('aside.card.puzzle-side', [
      puzzleNav(ctrl.daily ? '/training/daily' : ctrl.angle === 'mix' ? '/training' : ''),
      h('h1', ctrl.daily ? t('puzzle.daily') : ctrl.puzzleId ? t('puzzle.info.id', { id: ctrl.puzzleId }) : angleName(ctrl.angle)),
      ctrl.glicko && !ctrl.single
        ? h('p.muted', { attrs: { 'data-testid': 'puzzle-my-rating' } }, t(ctrl.rated ? 'puzzle.myRating' : 'puzzle.myRatingGuest', { rating: ctrl.rated ? ratingText(ctrl.glicko) : Math.round(ctrl.glicko.rating) }))
        : null,
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'puzzle-error' } }, ctrl.error) : null,
      roundFeedbackView(r, ctrl.error ? null : t('puzzle.loading')),
      actions(ctrl, r),
      r ? infoView(ctrl, r) : null,
      settings(ctrl),
    ]),
  ]);
}
