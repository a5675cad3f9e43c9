//! The game page as a function of its controller: player strips, the board
//! (chessground, mounted and disposed by hooks), promotion picker, result
//! banner, status, move list, history navigation, move input, claims,
//! resign confirmation, controls, announcer and the New game dialog; for
//! table games also both clocks, ratings, draw offers, the first-move
//! countdown, "opponent disconnected" and its claims, leaving, abort,
//! rematch and the rating change.
import { h, type VNode } from 'snabbdom';
import { type Color, type GameState, pgnUrl } from '../api.js';
import { boardConfig, canMove, canUndo, viewingHistory } from '../ground.js';
import { formatClock, isLow } from '../clock.js';
import { currentLetters, type Key, t } from '../i18n.js';
import { icon, type IconName } from '../icons.js';
import { newGameView } from '../newgame/view.js';
import { describePosition, legalMoves, localiseSan, PROMOTION_ROLES, sanOf } from '../notation.js';
import { isAborted, isReviewable, outcomeText } from '../result.js';
import { seatName } from '../seat.js';
import { soundEnabled } from '../sound.js';
import { ratingLabel, signed } from '../tables.js';
import { reportHref } from '../moderation/report-link.js';
import { chatPanel } from './chatView.js';
import type { GameCtrl } from './ctrl.js';
import { canAbort, hasClock, isTableGame, opposite } from './model.js';

/** The whole game page (a loading or error notice until the game is known). */
export function gameView(ctrl: GameCtrl): VNode {
  if (ctrl.loadError) {
    return h('div.card.not-found', { attrs: { 'data-testid': 'game-error' } }, [
      h('h1', ctrl.loadError === 'missing' ? t('game.notFound') : t('error.network')),
      h('a.button.primary', { attrs: { href: '/', 'data-testid': 'back-home' } }, [icon('home'), t('game.backHome')]),
    ]);
  }
  const g = ctrl.game;
  if (!g) return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
  const bottom = ctrl.orientation;
  const top: Color = bottom === 'white' ? 'black' : 'white';
  const zen = ctrl.zen();
  return h('div.game-page', { class: { zen } }, [
    h('div.board-column', [
      strip(ctrl, g, top, 'top', 'opponent'),
      h('div.board-frame', [board(ctrl), promotion(ctrl, g)]),
      strip(ctrl, g, bottom, 'bottom', 'you'),
      confirmMove(ctrl),
      zen ? h('button.link-button.zen-exit', { attrs: { type: 'button', 'data-testid': 'zen-exit' }, on: { click: () => ctrl.exitZen() } }, t('game.zen.exit')) : null,
    ]),
    h('div.side-column', [
      ctrl.arena ? h('p.game-arena', [h('a', { attrs: { href: `/tournament/${encodeURIComponent(ctrl.arena.id)}`, 'data-testid': 'game-arena-link' } }, t('arena.backTo', { name: ctrl.arena.fullName }))]) : null,
      ctrl.canBerserk() ? h('button.danger.berserk', { attrs: { type: 'button', 'data-testid': 'game-berserk', title: t('arena.berserk.help') }, on: { click: () => ctrl.berserk() } }, t('arena.berserk')) : null,
      ctrl.berserkError ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'game-berserk-error' } }, ctrl.berserkError) : null,
      banner(g),
      ratingChange(ctrl, g),
      awayNotice(ctrl, g),
      drawOffer(ctrl, g),
      takebackOffer(ctrl, g),
      h('section.card.side-card', [
        status(ctrl, g),
        firstMove(ctrl),
        h('p.game-info.muted', { attrs: { 'data-testid': 'game-info' } }, info(g)),
        h('p.connection', { attrs: { 'data-testid': 'connection', role: 'status' }, props: { hidden: ctrl.connected && !ctrl.gone } }, ctrl.gone ? t('error.gone') : t('conn.reconnecting')),
        h('h2.panel-title', { attrs: { id: 'moves-title' } }, t('game.moves')),
        moves(ctrl, g),
        history(ctrl, g),
        moveForm(ctrl, g),
        claimWithMove(ctrl, g),
        positionText(ctrl, g),
      ]),
      claims(ctrl, g),
      resignDialog(ctrl, g),
      leaveDialog(ctrl, g),
      controls(ctrl, g),
      chatPanel(ctrl.chat, ctrl.ctx.account() !== null, (l) => {
        const me = ctrl.ctx.account();
        if (!me || l.user.toLowerCase() === me.username.toLowerCase()) return null;
        return reportHref(l.user, 'abuse', t('report.chatText', { url: `${location.origin}/game/${ctrl.id}`, text: l.text }));
      }),
    ]),
    // Not the status line: this live region speaks moves and results once.
    h('div.visually-hidden', { attrs: { 'aria-live': 'polite', 'data-testid': 'announcer' } }, ctrl.announcement),
    newGameDialog(ctrl),
  ]);
}

function board(ctrl: GameCtrl): VNode {
  return h('div.board', {
    key: 'board',
    attrs: { 'data-testid': 'board', role: 'img', 'aria-label': t('game.board') },
    hook: {
      insert: (v) => ctrl.mountBoard(v.elm as HTMLElement),
      destroy: () => ctrl.unmountBoard(),
    },
  });
}

function nameOf(ctrl: GameCtrl, g: GameState, c: Color): string {
  if (isTableGame(g)) return ctrl.seatLabel(c);
  if (g.you === c) return t('game.you');
  if (g.you === null) {
    // Spectators see who plays, when the server says (the dot shows the colour).
    const seat = g[c];
    return seat ? seatName(seat) : t(`color.${c}` as Key);
  }
  return ctrl.computerName();
}

function strip(ctrl: GameCtrl, g: GameState, color: Color, where: 'top' | 'bottom', testid: string): VNode {
  const ongoing = g.status === 'ongoing';
  const thinking = ongoing && g.you !== null && color !== g.you && (g.thinking || g.turn === color);
  const yourTurn = color === g.you && canMove(g, ctrl.pending);
  return h(`div.player-strip.${where}`, { attrs: { 'data-testid': testid } }, [
    h(`span.piece-dot.${color}`, { attrs: { 'aria-hidden': 'true' } }),
    h('span.player-name', nameOf(ctrl, g, color)),
    isTableGame(g) && g.ratings?.[color] ? h('span.player-rating.muted', { attrs: { 'data-testid': `rating-${where}` } }, ratingLabel(g.ratings[color])) : null,
    thinking ? h('span.thinking', { attrs: { 'data-testid': 'thinking', 'aria-hidden': 'true' } }, [h('i'), h('i'), h('i')]) : null,
    // A reminder next to the board on small screens, where the status line is further down.
    yourTurn ? h('span.turn-pill', { attrs: { 'aria-hidden': 'true' } }, t('game.turn.you')) : null,
    ...(hasClock(g) ? tableStrip(ctrl, g, color, where) : []),
    reportLink(ctrl, g, color, where),
  ]);
}

/** "Report" beside an opponent with an account, for a viewer with one. */
function reportLink(ctrl: GameCtrl, g: GameState, color: Color, where: 'top' | 'bottom'): VNode | null {
  const seat = g[color];
  const me = ctrl.ctx.account();
  if (!me || seat?.kind !== 'user' || !seat.name || seat.name.toLowerCase() === me.username.toLowerCase()) return null;
  const href = reportHref(seat.name, 'cheat', t('report.gameText', { url: `${location.origin}/game/${ctrl.id}` }));
  return h('a.report-link.muted.small', { attrs: { href, 'data-testid': `report-${where}`, title: t('report.player', { name: seat.name }) } }, t('report.short'));
}

/** A player's "disconnected" mark and clock, in a game with a clock. */
function tableStrip(ctrl: GameCtrl, g: GameState, color: Color, where: 'top' | 'bottom'): Array<VNode | null> {
  const ms = ctrl.clockMs(color);
  const running = g.status === 'ongoing' && ctrl.clock?.clock.running === color;
  const low = ms !== null && isLow(ms);
  return [
    g.away?.[color] && g.status === 'ongoing' ? h('span.away-mark', { attrs: { title: t('table.awayMark') } }, t('table.awayMark')) : null,
    g.clock?.[`${color}_berserk`] ? h('span.berserk-mark', { attrs: { title: t('arena.berserk.done'), 'data-testid': `berserk-${where}` } }, t('arena.berserk.mark')) : null,
    h(
      'span.clock',
      {
        class: { running, low, mine: color === g.you },
        attrs: { 'data-testid': `clock-${where}`, 'data-color': color, role: 'timer', 'aria-label': t('table.clock', { color: t(`color.${color}` as Key) }) },
      },
      ms === null ? '–:––' : formatClock(ms),
    ),
  ];
}

function promotion(ctrl: GameCtrl, g: GameState): VNode | null {
  const you = g.you;
  if (!ctrl.promotion || !you) return null;
  return h(
    'div.promotion',
    {
      key: 'promotion',
      attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'promo-title', 'data-testid': 'promotion' },
      on: {
        keydown: (e: KeyboardEvent) => {
          if (e.key === 'Escape') ctrl.choosePromotion(null);
        },
      },
    },
    [
      h('p.promo-title', { attrs: { id: 'promo-title' } }, t('promotion.title')),
      h(
        'div.promo-choices.cg-wrap',
        PROMOTION_ROLES.map((role) =>
          h(
            'button.promo-choice',
            {
              attrs: { type: 'button', 'aria-label': t(`piece.${role}` as Key), title: t(`piece.${role}` as Key), 'data-testid': `promotion-${role}` },
              on: { click: () => ctrl.choosePromotion(role) },
            },
            [h(`piece.${you}.${role}`)],
          ),
        ),
      ),
      h('button.promo-cancel', { attrs: { type: 'button', 'data-testid': 'promotion-cancel' }, on: { click: () => ctrl.choosePromotion(null) } }, t('promotion.cancel')),
    ],
  );
}

function banner(g: GameState): VNode | null {
  if (g.status === 'ongoing') return null;
  const r = outcomeText(g, g.you);
  return h(`div.result-banner.${r.tone}`, { attrs: { 'data-testid': 'result' } }, [
    h('strong', { attrs: { 'data-testid': 'result-headline' } }, r.headline),
    r.reason ? h('span', { attrs: { 'data-testid': 'result-reason' } }, r.reason) : null,
  ]);
}

function status(ctrl: GameCtrl, g: GameState): VNode {
  const ongoing = g.status === 'ongoing';
  const state = !ongoing ? 'over' : g.you === null ? 'spectator' : canMove(g, ctrl.pending) ? 'your-turn' : 'waiting';
  let text: string;
  if (!ongoing) {
    const r = outcomeText(g, g.you);
    text = [r.headline, r.reason].filter(Boolean).join(' · ');
  } else if (g.you === null) text = t('game.spectator');
  else if (g.thinking || g.turn !== g.you) text = g.thinking ? t('game.turn.computer') : t(isTableGame(g) ? 'table.turn.opponent' : 'game.turn.waiting');
  else text = t('game.turn.you') + (g.check ? ` · ${t('announce.check')}` : '');
  return h('p.status', { attrs: { 'data-testid': 'status', 'data-state': state } }, text);
}

function info(g: GameState): string {
  const variant = g.variant === 'chess960' ? t('game.variant.chess960', { n: g.position ?? '?' }) : t('variant.standard');
  const clock = g.clock ? `${Math.round(g.clock.initial_ms / 60_000)}+${Math.round(g.clock.increment_ms / 1000)}` : null;
  // An aborted game counts for nothing: calling it "Rated" would promise a rating change.
  const rated = isTableGame(g) && !isAborted(g) ? t(g.rated ? 'multiplayer.rated' : 'multiplayer.casual') : null;
  return [clock, variant, g.rules === 'fide' || g.rules === 'plyyard' ? t(`rules.${g.rules}`) : null, rated].filter(Boolean).join(' · ');
}

/** The rating points won or lost, once a rated game is over. */
function ratingChange(ctrl: GameCtrl, g: GameState): VNode | null {
  const c = g.rating_changes;
  if (g.status === 'ongoing' || !c) return null;
  const text = g.you
    ? t('table.ratingChange.you', { change: signed(c[g.you]) })
    : t('table.ratingChange.both', { white: ctrl.seatLabel('white'), whiteChange: signed(c.white), black: ctrl.seatLabel('black'), blackChange: signed(c.black) });
  return h('p.rating-change', { class: { up: !!g.you && c[g.you] > 0, down: !!g.you && c[g.you] < 0 }, attrs: { 'data-testid': 'rating-change' } }, text);
}

/** "Your opponent is disconnected", and the claims once they have been away long enough. */
function awayNotice(ctrl: GameCtrl, g: GameState): VNode | null {
  if (!isTableGame(g) || g.status !== 'ongoing' || !g.you || !g.away?.[opposite(g.you)]) return null;
  return h('div.notice.away-notice', { attrs: { 'data-testid': 'opponent-away', role: 'status' } }, [
    h('p', t('table.away')),
    g.can_claim_away
      ? h('div.notice-actions', [
          h('button.primary', { attrs: { type: 'button', 'data-testid': 'claim-win' }, on: { click: () => ctrl.claimAway('win') } }, t('table.claimWin')),
          h('button', { attrs: { type: 'button', 'data-testid': 'claim-away-draw' }, on: { click: () => ctrl.claimAway('draw') } }, t('table.claimDraw')),
        ])
      : h('p.muted.small', t('table.away.wait')),
  ]);
}

/** A pending draw offer: the opponent's (accept or decline on your turn, or decline by playing) or your own. */
function drawOffer(ctrl: GameCtrl, g: GameState): VNode | null {
  const by = g.draw_offer;
  if (!isTableGame(g) || g.status !== 'ongoing' || !by) return null;
  if (g.you === null) return h('p.notice', { attrs: { 'data-testid': 'draw-offer' } }, t('table.drawOffer.spectator', { color: t(`color.${by}` as Key) }));
  if (by === g.you) return h('p.notice.muted', { attrs: { 'data-testid': 'draw-offer' } }, t('table.drawOffer.yours'));
  return h('div.notice.draw-notice', { attrs: { 'data-testid': 'draw-offer', role: 'status' } }, [
    h('p', t('table.drawOffer.theirs')),
    g.turn === g.you
      ? h('div.notice-actions', [
          h('button.primary', { attrs: { type: 'button', 'data-testid': 'accept-draw' }, on: { click: () => ctrl.acceptDraw() } }, t('table.drawOffer.accept')),
          h('button', { attrs: { type: 'button', 'data-testid': 'decline-draw' }, on: { click: () => ctrl.declineDraw() } }, t('table.drawOffer.decline')),
        ])
      : null,
  ]);
}

/** May the viewer ask to take back their last move: a casual game outside tournaments, past the first moves, nothing asked yet? */
function canAskTakeback(ctrl: GameCtrl, g: GameState): boolean {
  if (!isTableGame(g) || g.status !== 'ongoing' || !g.you || g.rated || ctrl.arena || g.takeback_offer) return false;
  // The first two plies stay: one's last move must come after them.
  return g.moves.length >= (g.turn === g.you ? 4 : 3);
}

/** A pending takeback: the opponent's (accept or decline), or your own (withdraw). */
function takebackOffer(ctrl: GameCtrl, g: GameState): VNode | null {
  const by = g.takeback_offer;
  if (!isTableGame(g) || g.status !== 'ongoing' || !by) return null;
  if (g.you === null) return h('p.notice', { attrs: { 'data-testid': 'takeback-offer' } }, t('table.takeback.spectator', { color: t(`color.${by}` as Key) }));
  if (by === g.you) {
    return h('div.notice.muted', { attrs: { 'data-testid': 'takeback-offer' } }, [
      h('p', t('table.takeback.yours')),
      h('div.notice-actions', [h('button', { attrs: { type: 'button', 'data-testid': 'takeback-cancel' }, on: { click: () => ctrl.takeback(false) } }, t('table.takeback.cancel'))]),
    ]);
  }
  return h('div.notice.draw-notice', { attrs: { 'data-testid': 'takeback-offer', role: 'status' } }, [
    h('p', t('table.takeback.theirs')),
    h('div.notice-actions', [
      h('button.primary', { attrs: { type: 'button', 'data-testid': 'takeback-accept' }, on: { click: () => ctrl.takeback(true) } }, t('table.takeback.accept')),
      h('button', { attrs: { type: 'button', 'data-testid': 'takeback-decline' }, on: { click: () => ctrl.takeback(false) } }, t('table.takeback.decline')),
    ]),
  ]);
}

/** A move waiting for its confirmation (the move-confirmation preference). */
function confirmMove(ctrl: GameCtrl): VNode | null {
  const uci = ctrl.unconfirmed;
  if (!uci) return null;
  return h('div.confirm-move', { attrs: { 'data-testid': 'confirm-move', role: 'group', 'aria-label': t('game.confirmMove', { move: uci }) } }, [
    h('span', t('game.confirmMove', { move: uci })),
    h('button.primary', { attrs: { type: 'button', 'data-testid': 'confirm-move-yes' }, on: { click: () => ctrl.confirmMove(true) } }, t('game.confirmMove.yes')),
    h('button', { attrs: { type: 'button', 'data-testid': 'confirm-move-no' }, on: { click: () => ctrl.confirmMove(false) } }, t('game.confirmMove.no')),
  ]);
}

/** The countdown for the first moves of a table game. */
function firstMove(ctrl: GameCtrl): VNode | null {
  const text = ctrl.deadlineText();
  return text ? h('p.first-move', { attrs: { 'data-testid': 'first-move', role: 'status' } }, text) : null;
}

function moves(ctrl: GameCtrl, g: GameState): VNode {
  const letters = currentLetters();
  const fields = g.initial_fen.split(' ');
  const blackFirst = fields[1] === 'b';
  let number = Number(fields[5]) || 1;
  const plies = g.moves.map((m) => localiseSan(m.san, letters));
  const shown = ctrl.viewPly ?? plies.length;
  const mk = (ply: number) =>
    h(
      'button.move',
      {
        class: { current: ply === shown - 1 },
        attrs: { type: 'button', 'aria-current': ply === shown - 1 ? 'step' : false, 'data-testid': 'move', 'data-ply': ply + 1, 'data-uci': g.moves[ply]!.uci },
        on: { click: () => ctrl.viewAt(ply + 1) },
      },
      plies[ply]!,
    );
  const rows: VNode[] = [];
  let i = 0;
  while (i < plies.length) {
    const cells: VNode[] = [];
    if (i === 0 && blackFirst) {
      cells.push(h('span.move.empty', { attrs: { 'aria-hidden': 'true' } }, '…'), mk(0));
      i = 1;
    } else {
      cells.push(mk(i));
      if (i + 1 < plies.length) cells.push(mk(i + 1));
      i += 2;
    }
    rows.push(h('li', { attrs: { value: number } }, [h('span.num', { attrs: { 'aria-hidden': 'true' } }, `${number}.`), ...cells]));
    number++;
  }
  const scroll = (box: HTMLElement) => {
    if (ctrl.viewPly === null) box.scrollTop = box.scrollHeight;
    else box.querySelector('.move.current')?.scrollIntoView({ block: 'nearest' });
  };
  return h('div.moves-box', { hook: { insert: (v) => scroll(v.elm as HTMLElement), postpatch: (_, v) => scroll(v.elm as HTMLElement) } }, [
    h('ol.moves', { attrs: { 'data-testid': 'move-list', 'aria-labelledby': 'moves-title' } }, rows.length ? rows : [h('li.none.muted', t('game.moves.none'))]),
  ]);
}

function history(ctrl: GameCtrl, g: GameState): VNode {
  const viewing = viewingHistory(g, { ply: ctrl.viewPly });
  const shownPly = viewing ? ctrl.viewPly! : g.moves.length;
  const nav = (testid: string, text: string, key: Key, disabled: boolean, to: () => number | null) =>
    h(
      'button.icon-only.nav',
      { attrs: { type: 'button', 'data-testid': testid, 'aria-label': t(key), title: t(key) }, props: { disabled }, on: { click: () => ctrl.viewAt(to()) } },
      text,
    );
  return h('div.history', [
    h('div.history-nav', [
      nav('history-first', '«', 'game.history.first', shownPly === 0, () => 0),
      nav('history-prev', '‹', 'game.history.prev', shownPly === 0, () => Math.max(0, shownPly - 1)),
      nav('history-next', '›', 'game.history.next', !viewing, () => (ctrl.viewPly === null ? null : ctrl.viewPly + 1)),
      nav('history-last', '»', 'game.history.live', !viewing, () => null),
    ]),
    viewing
      ? h('p.history-note', { attrs: { 'data-testid': 'history-note' } }, [
          t('game.history.viewing'),
          ' ',
          h('button.link-button', { attrs: { type: 'button', 'data-testid': 'history-live' }, on: { click: () => ctrl.viewAt(null) } }, t('game.history.live')),
        ])
      : null,
  ]);
}

function moveForm(ctrl: GameCtrl, g: GameState): VNode | null {
  if (g.you === null || g.status !== 'ongoing') return null;
  const letters = currentLetters();
  const legal = canMove(g, ctrl.pending) ? legalMoves(g.fen, g.dests) : [];
  const suggestions = legal.map((m) => sanOf(m, legal, letters)).sort();
  return h(
    'form.move-form',
    {
      attrs: { 'data-testid': 'move-form' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submitTyped();
        },
      },
    },
    [
      h('label', { attrs: { for: 'move-input' } }, t('game.moveInput.label')),
      h('div.input-row', [
        h('input', {
          attrs: {
            id: 'move-input',
            type: 'text',
            autocomplete: 'off',
            autocapitalize: 'off',
            spellcheck: 'false',
            enterkeyhint: 'send',
            list: 'legal-moves',
            placeholder: t('game.moveInput.placeholder'),
            'aria-describedby': 'move-help move-feedback',
            'data-testid': 'move-input',
          },
          props: { value: ctrl.input },
          on: { input: (e: Event) => ctrl.setInput((e.target as HTMLInputElement).value) },
        }),
        // Suggestions while typing: the legal moves in the language's notation.
        h(
          'datalist',
          { attrs: { id: 'legal-moves', 'data-testid': 'legal-moves' } },
          suggestions.map((san) => h('option', { key: san, attrs: { value: san } })),
        ),
        h('button.icon-only', { attrs: { type: 'submit', 'data-testid': 'move-submit', 'aria-label': t('game.moveInput.submit'), title: t('game.moveInput.submit') } }, [icon('enter')]),
      ]),
      h('p.muted.small', { attrs: { id: 'move-help' } }, t('game.moveInput.help', { letters: [letters.king, letters.queen, letters.rook, letters.bishop, letters.knight].join(' ') })),
      h('p.feedback', { attrs: { id: 'move-feedback', role: 'status', 'data-testid': 'move-feedback' } }, ctrl.feedback),
    ],
  );
}

function claimWithMove(ctrl: GameCtrl, g: GameState): VNode | null {
  if (g.rules !== 'fide' || g.you === null || g.status !== 'ongoing') return null;
  return h('label.claim-with-move', { attrs: { for: 'claim-with-move' } }, [
    h('input', {
      attrs: { type: 'checkbox', id: 'claim-with-move', 'data-testid': 'claim-with-move' },
      props: { checked: ctrl.claimWithMove },
      on: { change: (e: Event) => ctrl.setClaimWithMove((e.target as HTMLInputElement).checked) },
    }),
    h('span', t('game.claimWithMove')),
  ]);
}

function positionText(ctrl: GameCtrl, g: GameState): VNode {
  const shownFen = boardConfig(g, { orientation: ctrl.orientation, pending: ctrl.pending, ply: ctrl.viewPly }).fen ?? g.fen;
  const described = describePosition(shownFen);
  return h('details.position-text', { attrs: { 'data-testid': 'position-text' } }, [
    h('summary', { attrs: { 'data-testid': 'position-text-toggle' } }, t('game.position.title')),
    h(
      'div.position-body',
      (['white', 'black'] as const).map((side) =>
        h(
          'p',
          { attrs: { 'data-testid': `position-${side}` } },
          t('game.position.side', {
            side: t(`color.${side}` as Key),
            pieces: described[side].map(([role, squares]) => `${t(`piece.${role}` as Key)} ${squares.join(', ')}`).join('; '),
          }),
        ),
      ),
    ),
  ]);
}

function claims(ctrl: GameCtrl, g: GameState): VNode | null {
  const open = canMove(g, ctrl.pending) ? (g.claimable ?? []) : [];
  if (open.length === 0) return null;
  return h(
    'div.claims',
    { attrs: { 'data-testid': 'claims' } },
    open.map((reason) =>
      h('button.control.claim', { attrs: { type: 'button', 'data-testid': `claim-${reason}` }, on: { click: () => ctrl.claim(reason) } }, t(`game.claim.${reason}` as Key)),
    ),
  );
}

function resignDialog(ctrl: GameCtrl, g: GameState): VNode | null {
  if (!ctrl.confirmingResign || g.status !== 'ongoing') return null;
  return h('div.confirm', { attrs: { role: 'alertdialog', 'aria-labelledby': 'resign-text', 'data-testid': 'resign-dialog' } }, [
    h('p', { attrs: { id: 'resign-text' } }, t('game.resign.confirm')),
    h('div.confirm-actions', [
      h('button.danger', { attrs: { type: 'button', 'data-testid': 'resign-confirm' }, on: { click: () => ctrl.resign() } }, t('game.resign.yes')),
      h('button', { attrs: { type: 'button', 'data-testid': 'resign-cancel' }, on: { click: () => ctrl.cancelResign() } }, t('game.resign.no')),
    ]),
  ]);
}

function leaveDialog(ctrl: GameCtrl, g: GameState): VNode | null {
  if (!ctrl.confirmingLeave || g.status !== 'ongoing') return null;
  return h('div.confirm', { attrs: { role: 'alertdialog', 'aria-labelledby': 'leave-text', 'data-testid': 'leave-dialog' } }, [
    h('p', { attrs: { id: 'leave-text' } }, t('table.leave.confirm')),
    h('div.confirm-actions', [
      h('button.danger', { attrs: { type: 'button', 'data-testid': 'leave-confirm' }, on: { click: () => ctrl.leave() } }, t('table.leave.yes')),
      h('button', { attrs: { type: 'button', 'data-testid': 'leave-cancel' }, on: { click: () => ctrl.cancelLeave() } }, t('game.resign.no')),
    ]),
  ]);
}

function control(testid: string, iconName: IconName, label: string, click: () => void, opts: { disabled?: boolean; hidden?: boolean; pressed?: boolean } = {}): VNode {
  return h(
    'button.control',
    {
      attrs: { type: 'button', 'data-testid': testid, 'aria-pressed': opts.pressed === undefined ? false : String(opts.pressed) },
      props: { disabled: !!opts.disabled, hidden: !!opts.hidden },
      on: { click },
    },
    [icon(iconName), h('span.label', label)],
  );
}

function tableControls(ctrl: GameCtrl, g: GameState): VNode {
  const ongoing = g.status === 'ongoing';
  const seated = g.you !== null;
  const soundOn = soundEnabled();
  const rematchBy = g.rematch?.offered_by ?? null;
  const rematchLabel = rematchBy === null ? t('table.rematch') : rematchBy === g.you ? t('table.rematch.sent') : t('table.rematch.accept');
  return h('div.controls', [
    control('flip-board', 'flip', t('game.flip'), () => ctrl.flip()),
    control('offer-draw', 'half', t('table.offerDraw'), () => ctrl.toggleOfferDraw(), { hidden: !seated || !ongoing, pressed: ctrl.offerDraw }),
    control('takeback', 'undo', t('table.takeback'), () => ctrl.takeback(true), { hidden: !canAskTakeback(ctrl, g) }),
    control('abort', 'cross', t('table.abort'), () => ctrl.abort(), { hidden: !canAbort(g) }),
    control('resign', 'flag', t('game.resign'), () => ctrl.askResign(), { hidden: !seated || !ongoing || canAbort(g) }),
    // During the game leaving resigns (after a confirmation); afterwards it only goes back to the lobby.
    seated && ongoing ? control('leave-table', 'exit', t('table.leave'), () => ctrl.askLeave()) : null,
    seated && !ongoing ? h('a.control', { attrs: { href: '/multiplayer', 'data-testid': 'leave-table' } }, [icon('exit'), h('span.label', t('table.leave'))]) : null,
    control('rematch', 'repeat', rematchLabel, () => ctrl.rematch(), { hidden: !seated || ongoing, disabled: rematchBy !== null && rematchBy === g.you }),
    h('a.control', { attrs: { href: pgnUrl(g.id), download: `plyyard-${g.id}.pgn`, 'data-testid': 'download-pgn' } }, [icon('download'), h('span.label', t('game.pgn'))]),
    reviewLink(g),
    analysisLink(g),
    control('sound-toggle', soundOn ? 'soundOn' : 'soundOff', t(soundOn ? 'game.sound.on' : 'game.sound.off'), () => ctrl.toggleSound(), { pressed: soundOn }),
    ongoing || seated ? null : h('a.control', { attrs: { href: '/multiplayer', 'data-testid': 'back-multiplayer' } }, [icon('home'), h('span.label', t('table.backToLobby'))]),
    ctrl.offerDraw && ongoing ? h('p.muted.small.offer-note', { attrs: { 'data-testid': 'offer-note' } }, t('table.offerDraw.note')) : null,
  ]);
}

/** The link to a finished game's review. */
function reviewLink(g: GameState): VNode | null {
  if (!isReviewable(g)) return null;
  return h('a.control', { attrs: { href: `/game/${encodeURIComponent(g.id)}/review`, 'data-testid': 'review-link' } }, [icon('enter'), h('span.label', t('review.link'))]);
}

/** The link to a finished game on the analysis board, at its last position, the game's moves as the main line. */
function analysisLink(g: GameState): VNode | null {
  if (!isReviewable(g)) return null;
  return h('a.control', { attrs: { href: `/analysis?game=${encodeURIComponent(g.id)}&ply=${g.moves.length}`, 'data-testid': 'analysis-link' } }, [icon('enter'), h('span.label', t('analysis.link'))]);
}

function controls(ctrl: GameCtrl, g: GameState): VNode {
  if (isTableGame(g)) return tableControls(ctrl, g);
  const ongoing = g.status === 'ongoing';
  const soundOn = soundEnabled();
  return h('div.controls', [
    control('flip-board', 'flip', t('game.flip'), () => ctrl.flip()),
    control('undo', 'undo', t('game.undo'), () => ctrl.undo(), { disabled: !canUndo(g), hidden: g.you === null }),
    control('resign', 'flag', t('game.resign'), () => ctrl.askResign(), { disabled: !ongoing, hidden: g.you === null }),
    control('new-game', 'plus', t('game.newGame'), () => ctrl.openNewGame()),
    h('a.control', { attrs: { href: pgnUrl(g.id), download: `plyyard-${g.id}.pgn`, 'data-testid': 'download-pgn' } }, [icon('download'), h('span.label', t('game.pgn'))]),
    reviewLink(g),
    analysisLink(g),
    control('sound-toggle', soundOn ? 'soundOn' : 'soundOff', t(soundOn ? 'game.sound.on' : 'game.sound.off'), () => ctrl.toggleSound(), { pressed: soundOn }),
  ]);
}

/** Opens or closes the native dialog to match the controller. */
function syncDialog(ctrl: GameCtrl, el: HTMLDialogElement): void {
  if (ctrl.newGame && !el.open) el.showModal();
  else if (!ctrl.newGame && el.open) el.close();
}

function newGameDialog(ctrl: GameCtrl): VNode {
  return h(
    'dialog.new-game-dialog',
    {
      key: 'new-game-dialog',
      attrs: { 'aria-labelledby': 'new-game-title', 'data-testid': 'new-game-dialog' },
      on: { close: () => ctrl.closeNewGame() },
      hook: { insert: (v) => syncDialog(ctrl, v.elm as HTMLDialogElement), postpatch: (_, v) => syncDialog(ctrl, v.elm as HTMLDialogElement) },
    },
    ctrl.newGame
      ? [
          h('div.dialog-head', [
            h('h2', { attrs: { id: 'new-game-title' } }, t('home.play.title')),
            h('button.icon-only.close', { attrs: { type: 'button', 'data-testid': 'new-game-close', 'aria-label': t('promotion.cancel') }, on: { click: () => ctrl.closeNewGame() } }, '×'),
          ]),
          newGameView(ctrl.newGame),
        ]
      : [],
  );
}
