//! The storm page: the board, the clock (with the last bonus or penalty),
//! the score and combo, and at the end the results and "play again".
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { isLow } from '../clock.js';
import { puzzleButton, roundFeedbackView } from './round.js';
import type { StormCtrl } from './storm.js';
import { puzzleNav } from './view.js';

function results(ctrl: StormCtrl): VNode {
  const total = ctrl.solved + ctrl.failed;
  const item = (id: string, label: string, value: string | number) => h('div.puzzle-stat', { attrs: { 'data-testid': id } }, [h('dt', label), h('dd', String(value))]);
  return h('div.puzzle-over', { attrs: { 'data-testid': 'storm-over', role: 'alert' } }, [
    h('h2', t('puzzle.storm.over', { n: ctrl.solved })),
    h('dl.puzzle-stats', [
      item('storm-solved', t('puzzle.storm.solved'), ctrl.solved),
      item('storm-failed', t('puzzle.storm.failed'), ctrl.failed),
      item('storm-accuracy', t('puzzle.storm.accuracy'), total === 0 ? '–' : `${Math.round((100 * ctrl.solved) / total)} %`),
      item('storm-best-combo', t('puzzle.storm.bestCombo'), ctrl.bestCombo),
      ctrl.high ? item('storm-high-all', t('puzzle.storm.highAllTime'), ctrl.high.allTime) : null,
      ctrl.high ? item('storm-high-day', t('puzzle.storm.highDay'), ctrl.high.day) : null,
    ]),
  ]);
}

/** The storm page. */
export function stormView(ctrl: StormCtrl): VNode {
  const r = ctrl.round;
  const left = ctrl.left();
  return h('section.puzzle-page', { attrs: { 'data-testid': 'storm-page' } }, [
    h('div.puzzle-board-col', [r ? r.vnode() : h('div.puzzle-board.puzzle-board-empty', { attrs: { 'data-testid': 'puzzle-board', 'data-state': 'loading' } })]),
    h('aside.card.puzzle-side', [
      puzzleNav('/storm'),
      h('h1', t('puzzle.storm.title')),
      h('p.muted', t('puzzle.storm.intro')),
      h('div.storm-bar', [
        h('span.storm-clock', { class: { low: ctrl.state === 'play' && isLow(left), running: ctrl.state === 'play' }, attrs: { 'data-testid': 'storm-clock', 'data-state': ctrl.state, role: 'timer', 'aria-label': t('puzzle.storm.clock') } }, ctrl.clockText()),
        ctrl.flash ? h('span.storm-flash', { class: { up: ctrl.flash.ms > 0, down: ctrl.flash.ms < 0 }, attrs: { 'data-testid': 'storm-flash' } }, `${ctrl.flash.ms > 0 ? '+' : '−'}${Math.abs(ctrl.flash.ms) / 1000} s`) : null,
        h('div.puzzle-score', [h('span.puzzle-score-label', t('puzzle.storm.score')), h('strong.puzzle-score-value', { attrs: { 'data-testid': 'storm-score' } }, String(ctrl.solved))]),
      ]),
      h('p.muted', { attrs: { 'data-testid': 'storm-combo' } }, t('puzzle.storm.combo', { n: ctrl.combo, best: ctrl.best })),
      ctrl.state === 'ready' ? h('p', { attrs: { 'data-testid': 'storm-ready' } }, t('puzzle.storm.ready')) : null,
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'puzzle-error' } }, ctrl.error) : null,
      ctrl.state === 'over' ? results(ctrl) : roundFeedbackView(r, ctrl.error ? null : t('puzzle.loading')),
      ctrl.state === 'over' ? h('div.ex-actions.puzzle-actions', [puzzleButton(t('puzzle.storm.again'), () => ctrl.restart(), 'storm-again', { primary: true })]) : null,
    ]),
  ]);
}
