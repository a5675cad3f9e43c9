//! The analysis board as a function of its controller: the board, the FEN
//! form, and the engine's lines with their scores and depth.
import { h, type VNode } from 'snabbdom';
import { currentLetters, t } from '../i18n.js';
import { icon } from '../icons.js';
import { localiseSan } from '../notation.js';
import type { AnalysisCtrl } from './ctrl.js';
import { type Line, scoreText } from './source.js';

/** The whole page. */
export function analysisView(ctrl: AnalysisCtrl): VNode {
  return h('div.game-page.analysis-page', [
    h('div.board-column', [
      h('div.board-frame', [
        h('div.board', {
          key: 'analysis-board',
          attrs: { 'data-testid': 'analysis-board', role: 'img', 'aria-label': t('game.board') },
          hook: { insert: (v) => ctrl.mountBoard(v.elm as HTMLElement), destroy: () => ctrl.unmountBoard() },
        }),
      ]),
    ]),
    h('div.side-column', [
      h('section.card.side-card', [
        h('h1.panel-title', t('analysis.title')),
        h('p.muted', t('analysis.intro')),
        h('p.muted.small', t('analysis.moveHint')),
        lines(ctrl),
        ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'analysis-error' } }, ctrl.error) : h('span'),
        fenForm(ctrl),
        h('div.review-links', [
          h('button.button', { attrs: { type: 'button', 'data-testid': 'analysis-flip' }, on: { click: () => ctrl.flip() } }, [icon('flip'), t('game.flip')]),
          h('a.button', { attrs: { href: '/import', 'data-testid': 'analysis-import' } }, t('review.import')),
        ]),
      ]),
    ]),
  ]);
}

function lineView(ctrl: AnalysisCtrl, l: Line): VNode {
  const letters = currentLetters();
  const moves = l.san.map((s, i) =>
    h(
      'button.line-step',
      { attrs: { type: 'button', 'data-testid': 'analysis-line-move', title: t('analysis.playLine') }, on: { click: () => ctrl.play(l.uci.slice(0, i + 1)) } },
      localiseSan(s, letters),
    ),
  );
  return h('li.analysis-line', { attrs: { 'data-testid': 'analysis-line' } }, [h('strong.analysis-score', scoreText(l.score)), ' ', ...moves]);
}

function lines(ctrl: AnalysisCtrl): VNode {
  const depth = ctrl.lines.reduce((d, l) => Math.max(d, l.depth), 0);
  const status = ctrl.running ? t('analysis.thinking', { depth }) : ctrl.done ? t('analysis.done', { depth }) : '';
  return h('div.analysis-lines', { attrs: { 'data-testid': 'analysis-lines', 'data-depth': depth, 'data-done': ctrl.done ? 'true' : 'false' } }, [
    h('p.muted', { attrs: { role: 'status', 'data-testid': 'analysis-status' } }, status),
    h('ol', ctrl.lines.map((l) => lineView(ctrl, l))),
  ]);
}

function fenForm(ctrl: AnalysisCtrl): VNode {
  return h(
    'form.analysis-fen',
    {
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submit();
        },
      },
    },
    [
      h('label', { attrs: { for: 'analysis-fen' } }, t('analysis.fen')),
      h('input#analysis-fen', {
        attrs: { type: 'text', spellcheck: 'false', autocomplete: 'off', maxlength: 120, 'data-testid': 'analysis-fen' },
        props: { value: ctrl.input },
        on: { input: (e: Event) => (ctrl.input = (e.target as HTMLInputElement).value) },
      }),
      h('button.button.primary', { attrs: { type: 'submit', 'data-testid': 'analysis-submit' } }, t('analysis.submit')),
    ],
  );
}
