//! The streak page: the board, the score and best streak, and at the end
//! the final score with "view the solution" and "new streak".
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { puzzleButton, roundFeedbackView } from './round.js';
import type { StreakCtrl } from './streak.js';
import { puzzleNav } from './view.js';

/** The streak page. */
export function streakView(ctrl: StreakCtrl): VNode {
  const r = ctrl.round;
  return h('section.puzzle-page', { attrs: { 'data-testid': 'streak-page' } }, [
    h('div.puzzle-board-col', [r ? r.vnode() : h('div.puzzle-board.puzzle-board-empty', { attrs: { 'data-testid': 'puzzle-board', 'data-state': 'loading' } })]),
    h('aside.card.puzzle-side', [
      puzzleNav('/streak'),
      h('h1', t('puzzle.streak.title')),
      h('p.muted', t('puzzle.streak.intro')),
      h('div.puzzle-score', [
        h('span.puzzle-score-label', t('puzzle.streak.score')),
        h('strong.puzzle-score-value', { attrs: { 'data-testid': 'streak-score' } }, String(ctrl.score)),
      ]),
      h('p.muted', { attrs: { 'data-testid': 'streak-best' } }, t('puzzle.streak.best', { n: ctrl.best })),
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'puzzle-error' } }, ctrl.error) : null,
      ctrl.over ? h('p.puzzle-over', { attrs: { 'data-testid': 'streak-over', role: 'alert' } }, t('puzzle.streak.over', { n: ctrl.score })) : null,
      roundFeedbackView(r, ctrl.error ? null : t('puzzle.loading')),
      h('div.ex-actions.puzzle-actions', [
        ctrl.over && r && (r.state === 'fail' || r.state === 'play') ? puzzleButton(t('puzzle.viewSolution'), () => r.viewSolution(), 'puzzle-solution') : null,
        ctrl.over || ctrl.error ? puzzleButton(t('puzzle.streak.again'), () => ctrl.restart(), 'streak-again', { primary: true }) : null,
      ]),
    ]),
  ]);
}
