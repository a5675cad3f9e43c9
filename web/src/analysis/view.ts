//! The analysis board as a function of its controller: the board with the
//! evaluation bar (White's share from the top line, an SVG sized by its
//! attributes, not styles), the opening's name, the move tree with its walk
//! buttons, the engine's lines with move numbers, the FEN form and PGN in
//! and out.
import { h, type VNode } from 'snabbdom';
import { currentLetters, t } from '../i18n.js';
import { icon } from '../icons.js';
import { localiseSan } from '../notation.js';
import { whitePercent } from '../review/data.js';
import type { AnalysisCtrl } from './ctrl.js';
import { treeNav, treeView } from './moves.js';
import { type Line, scoreText } from './source.js';
import { numberedTokens, openingAt } from './tree.js';

/** The whole page. */
export function analysisView(ctrl: AnalysisCtrl): VNode {
  return h('div.game-page.analysis-page', [
    h('div.board-column', [
      h('div.analysis-board-row', [
        evalBar(ctrl),
        h('div.board-frame', [
          h('div.board', {
            key: 'analysis-board',
            attrs: { 'data-testid': 'analysis-board', role: 'img', 'aria-label': t('game.board') },
            hook: { insert: (v) => ctrl.mountBoard(v.elm as HTMLElement), destroy: () => ctrl.unmountBoard() },
          }),
        ]),
      ]),
    ]),
    h('div.side-column', [
      h('section.card.side-card', [
        h('h1.panel-title', t('analysis.title')),
        h('p.muted.small', t('analysis.intro')),
        opening(ctrl),
        treeView(ctrl),
        h('div.review-nav', [
          treeNav(ctrl),
          h('button.button', { attrs: { type: 'button', 'data-testid': 'tree-promote', disabled: !ctrl.node?.parent }, on: { click: () => ctrl.promote() } }, t('analysis.promote')),
          h('button.button', { attrs: { type: 'button', 'data-testid': 'tree-delete', disabled: !ctrl.node?.parent }, on: { click: () => ctrl.deleteNode() } }, t('analysis.delete')),
        ]),
        h('p.muted.small', t('analysis.moveHint')),
        lines(ctrl),
        ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'analysis-error' } }, ctrl.error) : h('span'),
      ]),
      h('section.card.side-card', [
        fenForm(ctrl),
        pgnForms(ctrl),
        h('div.review-links', [
          h('button.button', { attrs: { type: 'button', 'data-testid': 'analysis-flip' }, on: { click: () => ctrl.flip() } }, [icon('flip'), t('game.flip')]),
          h('a.button', { attrs: { href: '/import', 'data-testid': 'analysis-import' } }, t('review.import')),
        ]),
      ]),
    ]),
  ]);
}

const BAR_H = 100;

/** White's share of the winning chances from the top line, with its score; mates as #N / −#N. */
function evalBar(ctrl: AnalysisCtrl): VNode {
  const top = ctrl.lines[0];
  const pct = top ? whitePercent(top.score) : 50;
  const white = (pct / 100) * BAR_H;
  const flipped = ctrl.orientation === 'black';
  return h('div.eval-bar', { attrs: { 'data-testid': 'eval-bar', 'data-white': pct.toFixed(1) } }, [
    h(
      'svg.eval-bar-svg',
      { attrs: { viewBox: `0 0 10 ${BAR_H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': t('analysis.evalBar', { score: top ? scoreText(top.score) : '—' }) } },
      [
        h('rect.eval-black', { attrs: { x: 0, y: 0, width: 10, height: BAR_H } }),
        h('rect.eval-white', { attrs: { x: 0, y: flipped ? 0 : BAR_H - white, width: 10, height: white } }),
        h('line.eval-mid', { attrs: { x1: 0, y1: BAR_H / 2, x2: 10, y2: BAR_H / 2 } }),
      ],
    ),
    h('span.eval-score', { attrs: { 'data-testid': 'eval-score' } }, top ? scoreText(top.score) : ''),
  ]);
}

function opening(ctrl: AnalysisCtrl): VNode {
  const o = ctrl.node ? openingAt(ctrl.node) : null;
  return h('p.analysis-opening', { attrs: { 'data-testid': 'analysis-opening' } }, o ? [h('strong', o.eco), ` ${o.name}`] : [h('span.muted', t('analysis.noOpening'))]);
}

function lineView(ctrl: AnalysisCtrl, l: Line): VNode {
  const letters = currentLetters();
  const fen = ctrl.fen ?? '';
  const moves = numberedTokens(fen, l.san).map((tok, i) =>
    h(
      'button.line-step',
      { attrs: { type: 'button', 'data-testid': 'analysis-line-move', title: t('analysis.playLine') }, on: { click: () => ctrl.play(l.uci.slice(0, i + 1)) } },
      tok.prefix + localiseSan(tok.san, letters),
    ),
  );
  return h('li.analysis-line', { attrs: { 'data-testid': 'analysis-line' } }, [h('strong.analysis-score', scoreText(l.score)), ...moves.flatMap((m) => [' ', m])]);
}

function lines(ctrl: AnalysisCtrl): VNode {
  const depth = ctrl.lines.reduce((d, l) => Math.max(d, l.depth), 0);
  const status = !ctrl.hasMoves() && ctrl.node ? t('analysis.over') : ctrl.running ? t('analysis.thinking', { depth }) : ctrl.done ? t('analysis.done', { depth }) : '';
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
        attrs: { type: 'text', spellcheck: 'false', autocomplete: 'off', maxlength: 128, 'data-testid': 'analysis-fen' },
        props: { value: ctrl.input },
        on: { input: (e: Event) => (ctrl.input = (e.target as HTMLInputElement).value) },
      }),
      h('button.button.primary', { attrs: { type: 'submit', 'data-testid': 'analysis-submit' } }, t('analysis.submit')),
    ],
  );
}

function pgnForms(ctrl: AnalysisCtrl): VNode {
  return h('div.analysis-pgn', [
    h(
      'form.analysis-fen',
      {
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            ctrl.importPgn();
          },
        },
      },
      [
        h('label', { attrs: { for: 'analysis-pgn-in' } }, t('analysis.pgnIn')),
        h('textarea#analysis-pgn-in', {
          attrs: { rows: 4, spellcheck: 'false', maxlength: 65536, 'data-testid': 'analysis-pgn-in' },
          props: { value: ctrl.pgnInput },
          on: { input: (e: Event) => (ctrl.pgnInput = (e.target as HTMLTextAreaElement).value) },
        }),
        h('button.button', { attrs: { type: 'submit', 'data-testid': 'analysis-pgn-load' } }, t('analysis.pgnLoad')),
      ],
    ),
    h('div.analysis-fen', [
      h('button.button', { attrs: { type: 'button', 'data-testid': 'analysis-pgn-export' }, on: { click: () => ctrl.exportPgn() } }, t('analysis.pgnOut')),
      ctrl.pgnOut === null
        ? h('span')
        : h('textarea', { attrs: { rows: 6, readonly: true, spellcheck: 'false', 'aria-label': t('analysis.pgnOut'), 'data-testid': 'analysis-pgn-out' }, props: { value: ctrl.pgnOut } }),
    ]),
  ]);
}
