//! The review page as a function of its controller: progress while the
//! engine works, then the board with arrows, the evaluation graph (SVG,
//! click to jump), the move list with labels, the explanation of the
//! selected move with its best line, "next mistake", and each side's
//! summary.
import { h, type VNode } from 'snabbdom';
import { currentLetters, t } from '../i18n.js';
import { icon } from '../icons.js';
import { localiseSan } from '../notation.js';
import { resultText } from '../result.js';
import { seatName } from '../seat.js';
import type { ReviewCtrl } from './ctrl.js';
import { type Eval, evalsOf, evalText, lineMates, moveNumberOf, type MoveReview, type Review, type ReviewPlayer, type SideSummary, whitePercent } from './data.js';

/** The whole page. */
export function reviewView(ctrl: ReviewCtrl): VNode {
  if (ctrl.error && !ctrl.data) {
    return h('div.card.not-found', { attrs: { 'data-testid': 'review-error' } }, [
      h('h1', t('review.title')),
      h('p', ctrl.error),
      h('a.button', { attrs: { href: `/game/${ctrl.id}` } }, t('review.backToGame')),
    ]);
  }
  if (!ctrl.data) return progressView(ctrl);
  const d = ctrl.data;
  const top = ctrl.orientation === 'white' ? 'black' : 'white';
  // The explanations are the server's words: a language switch reads them again.
  const followLang = () => ctrl.followLang();
  return h('div.game-page.review-page', { hook: { insert: followLang, postpatch: followLang } }, [
    h('div.board-column', [
      playerStrip(d.game[top], top),
      h('div.board-frame', [
        h('div.board', {
          key: 'review-board',
          attrs: { 'data-testid': 'review-board', role: 'img', 'aria-label': t('game.board') },
          hook: { insert: (v) => ctrl.mountBoard(v.elm as HTMLElement), destroy: () => ctrl.unmountBoard() },
        }),
      ]),
      playerStrip(d.game[ctrl.orientation], ctrl.orientation),
      graph(ctrl, d.review),
    ]),
    h('div.side-column', [
      h('section.card.side-card', [
        h('h1.panel-title', t('review.title')),
        h('p.muted', { attrs: { 'data-testid': 'review-result' } }, resultLine(d.game.result, d.game.reason)),
        explanation(ctrl),
        navigation(ctrl),
        moveList(ctrl, d.review),
      ]),
      summary(d.review, d.game.white, d.game.black),
      h('nav.review-links', [
        h('a.button', { attrs: { href: `/analysis?game=${encodeURIComponent(d.game.id)}&ply=${ctrl.ply}`, 'data-testid': 'review-analyse' } }, t('review.analyse')),
        // An imported game's own page shows no more than the review does (its players are the PGN's names).
        d.game.kind === 'imported' ? null : h('a.button', { attrs: { href: `/game/${encodeURIComponent(d.game.id)}`, 'data-testid': 'review-game' } }, t('review.backToGame')),
        h('button.button', { attrs: { type: 'button', 'data-testid': 'review-flip' }, on: { click: () => ctrl.flip() } }, [icon('flip'), t('game.flip')]),
        h('a.button', { attrs: { href: '/import', 'data-testid': 'review-import' } }, t('review.import')),
      ]),
    ]),
  ]);
}

function resultLine(result: string, reason: string | null): string {
  const r = resultText(result, null, reason);
  return r.reason ? `${r.headline} — ${r.reason}` : r.headline;
}

function playerName(p: ReviewPlayer): string {
  if (p.kind === 'pgn') return p.name && p.name !== '?' ? p.name : t('review.unknownPlayer');
  return seatName({ kind: p.kind as 'user', name: p.name, level: p.level });
}

function playerStrip(p: ReviewPlayer, color: 'white' | 'black'): VNode {
  return h('div.player-strip', { attrs: { 'data-testid': `review-player-${color}` } }, [
    h(`span.piece-dot.${color}`, { attrs: { 'aria-hidden': 'true' } }),
    playerName(p),
  ]);
}

function progressView(ctrl: ReviewCtrl): VNode {
  const p = ctrl.progress;
  const pct = p && p.total > 0 ? Math.round((100 * p.done) / p.total) : 0;
  return h('section.card.review-progress', { attrs: { 'data-testid': 'review-progress', 'aria-busy': 'true' } }, [
    h('h1', t('review.title')),
    h('p', { attrs: { role: 'status' } }, ctrl.queued ? t('review.queued') : p ? t('review.running', { done: p.done, total: p.total }) : t('review.starting')),
    h('progress', { attrs: { max: 100, value: pct, 'aria-label': t('review.progress') } }),
  ]);
}

const GRAPH_W = 600;
const GRAPH_H = 120;

/** White's winning chances after each ply as an SVG area; a click picks the nearest ply. */
function graph(ctrl: ReviewCtrl, review: Review): VNode {
  const evals = evalsOf(review);
  const n = Math.max(1, evals.length - 1);
  const x = (i: number) => (i / n) * GRAPH_W;
  const y = (pct: number) => GRAPH_H - (pct / 100) * GRAPH_H;
  const points = evals.map((e, i) => `${x(i).toFixed(1)},${y(whitePercent(e)).toFixed(1)}`);
  const area = `0,${GRAPH_H} ${points.join(' ')} ${GRAPH_W},${GRAPH_H}`;
  const dots = review.moves
    .filter((m) => m.label)
    .map((m) =>
      h(`circle.graph-dot.${m.label}`, {
        attrs: { cx: x(m.ply).toFixed(1), cy: y(whitePercent(m.after)).toFixed(1), r: 5, 'data-ply': m.ply },
      }),
    );
  const pick = (e: MouseEvent) => {
    const svg = e.currentTarget as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / Math.max(1, box.width)) * n);
    ctrl.goTo(ply);
  };
  return h(
    'svg.review-graph',
    {
      attrs: {
        viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`,
        preserveAspectRatio: 'none',
        role: 'img',
        'aria-label': t('review.graph'),
        'data-testid': 'review-graph',
      },
      on: { click: pick },
    },
    [
      h('rect.graph-bg', { attrs: { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H } }),
      h('polygon.graph-white', { attrs: { points: area } }),
      h('line.graph-mid', { attrs: { x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2 } }),
      h('line.graph-cursor', { attrs: { x1: x(ctrl.ply), y1: 0, x2: x(ctrl.ply), y2: GRAPH_H } }),
      ...dots,
    ],
  );
}

function san(s: string): string {
  return localiseSan(s, currentLetters());
}

function explanation(ctrl: ReviewCtrl): VNode {
  const m = ctrl.selected();
  if (!m) {
    return h('div.review-explanation', { attrs: { 'data-testid': 'review-explanation', 'aria-live': 'polite' } }, [
      h('p', t('review.startHint')),
    ]);
  }
  const number = `${moveNumberOf(ctrl.data?.game.initial_fen ?? '', m.ply)}${m.side === 'white' ? '.' : '…'}`;
  const head = [h('strong', `${number} ${san(m.san)}${m.symbol ?? ''}`), ' ', h('span.muted', { attrs: { 'data-testid': 'review-eval-after' } }, t('review.evalAfter', { eval: evalWords(m.after) }))];
  const body: VNode[] = [];
  if (m.label_name) body.push(h(`p.review-verdict.${m.label}`, m.label_name));
  for (const text of m.texts) body.push(h('p', text));
  if (!m.label && m.best.uci[0] === m.uci) body.push(h('p.muted', t('review.bestMove')));
  return h('div.review-explanation', { attrs: { 'data-testid': 'review-explanation', 'aria-live': 'polite' } }, [
    h('p.review-move-head', head),
    ...body,
    bestLine(ctrl, m),
  ]);
}

/** An evaluation for the reader: a mate says who mates ("White mates in 2"), not a bare "#2". */
function evalWords(e: Eval): string {
  if ('mate' in e) return t(e.mate > 0 ? 'review.eval.whiteMate' : 'review.eval.blackMate', { moves: Math.abs(e.mate) });
  return evalText(e);
}

/** The heading of the engine's line: its score, but a mate score only beside a line that shows the mate. */
function bestLineTitle(m: MoveReview): string {
  const e = m.before;
  if ('cp' in e) return t('review.bestLineEval', { eval: evalText(e) });
  if ('mate' in e && lineMates(m)) return t('review.bestLineEval', { eval: evalWords(e) });
  return t('review.bestLine');
}

function bestLine(ctrl: ReviewCtrl, m: MoveReview): VNode {
  if (m.best.san.length === 0) return h('span');
  const step = ctrl.lineStep;
  const moves = m.best.san.map((s, i) =>
    h('span.line-move', { class: { current: step !== null && i === step - 1 } }, [san(s), ' ']),
  );
  const controls =
    step === null
      ? [h('button.button', { attrs: { type: 'button', 'data-testid': 'review-show-line' }, on: { click: () => ctrl.stepLine(0) } }, t('review.showLine'))]
      : [
          h('button.button', { attrs: { type: 'button', 'data-testid': 'review-line-prev', 'aria-label': t('review.linePrev') }, on: { click: () => ctrl.stepLine(-1) } }, '‹'),
          h('span.muted', { attrs: { 'data-testid': 'review-line-step' } }, t('review.lineStep', { step, total: m.best.san.length })),
          h('button.button', { attrs: { type: 'button', 'data-testid': 'review-line-next', 'aria-label': t('review.lineNext') }, on: { click: () => ctrl.stepLine(1) } }, '›'),
          h('button.button', { attrs: { type: 'button', 'data-testid': 'review-line-close' }, on: { click: () => ctrl.closeLine() } }, t('review.hideLine')),
        ];
  return h('div.review-best', [
    h('p', { attrs: { 'data-testid': 'review-best-line' } }, [h('span.muted', { attrs: { 'data-testid': 'review-best-line-title' } }, `${bestLineTitle(m)} `), ...moves]),
    h('div.review-line-controls', controls),
  ]);
}

function navigation(ctrl: ReviewCtrl): VNode {
  const last = ctrl.data?.game.moves.length ?? 0;
  const btn = (testid: string, label: string, text: string, to: number, disabled: boolean) =>
    h('button.button', { attrs: { type: 'button', 'data-testid': testid, 'aria-label': label, disabled }, on: { click: () => ctrl.goTo(to) } }, text);
  return h('div.review-nav', [
    btn('review-first', t('review.first'), '«', 0, ctrl.ply === 0),
    btn('review-prev', t('review.prev'), '‹', ctrl.ply - 1, ctrl.ply === 0),
    btn('review-next', t('review.next'), '›', ctrl.ply + 1, ctrl.ply >= last),
    btn('review-last', t('review.last'), '»', last, ctrl.ply >= last),
    h('button.button.primary', { attrs: { type: 'button', 'data-testid': 'review-next-mistake' }, on: { click: () => ctrl.nextMistake() } }, t('review.nextMistake')),
  ]);
}

/** One move of the list, as a button. */
function moveButton(ctrl: ReviewCtrl, m: MoveReview): VNode {
  return h(
    'button.review-move',
    {
      attrs: { type: 'button', 'data-testid': 'review-move', 'data-ply': m.ply, 'aria-current': ctrl.ply === m.ply ? 'true' : 'false' },
      class: { current: ctrl.ply === m.ply, [m.label ?? 'plain']: true },
      on: { click: () => ctrl.goTo(m.ply) },
    },
    [san(m.san), m.symbol ? h(`span.review-label.${m.label}`, { attrs: { 'data-testid': 'review-label', title: m.label_name ?? '' } }, m.symbol) : ''],
  );
}

/** The moves as rows of number | White's move | Black's move (an empty cell before a first move by Black). */
function moveList(ctrl: ReviewCtrl, review: Review): VNode {
  const fen = ctrl.data?.game.initial_fen ?? '';
  const rows: Array<{ n: number; white: MoveReview | null; black: MoveReview | null }> = [];
  for (const m of review.moves) {
    const n = moveNumberOf(fen, m.ply);
    let row = rows[rows.length - 1];
    if (!row || row.n !== n || (m.side === 'white' && row.white)) {
      row = { n, white: null, black: null };
      rows.push(row);
    }
    row[m.side] = m;
  }
  return h(
    'ol.review-moves',
    { attrs: { 'aria-label': t('game.moves'), 'data-testid': 'review-moves' } },
    rows.map((r) =>
      h('li.review-row', { key: r.n, attrs: { 'data-testid': 'review-row', 'data-n': r.n } }, [
        h('span.move-no', { attrs: { 'aria-hidden': 'true' } }, `${r.n}.`),
        r.white ? moveButton(ctrl, r.white) : h('span.move-empty', { attrs: { 'aria-hidden': 'true' } }, '…'),
        r.black ? moveButton(ctrl, r.black) : h('span'),
      ]),
    ),
  );
}

function summary(review: Review, white: ReviewPlayer, black: ReviewPlayer): VNode {
  const row = (label: string, f: (s: SideSummary) => string | number) => h('tr', [h('th', { attrs: { scope: 'row' } }, label), h('td', String(f(review.white))), h('td', String(f(review.black)))]);
  return h('section.card.side-card.review-summary', { attrs: { 'data-testid': 'review-summary' } }, [
    h('h2.panel-title', t('review.summary')),
    h('table', [
      h('thead', h('tr', [h('th'), h('th', { attrs: { scope: 'col' } }, playerName(white)), h('th', { attrs: { scope: 'col' } }, playerName(black))])),
      h('tbody', [
        row(t('review.accuracy'), (s) => (s.accuracy === null ? '—' : `${s.accuracy.toFixed(1)} %`)),
        row(t('review.inaccuracies'), (s) => s.inaccuracies),
        row(t('review.mistakes'), (s) => s.mistakes),
        row(t('review.blunders'), (s) => s.blunders),
      ]),
    ]),
  ]);
}
