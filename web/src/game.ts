//! The game page: board, move list, move input, controls, result banner and
//! announcements, kept in step with the server through the game socket.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key as SquareKey } from '@lichess-org/chessground/types';
import { ApiError, type ClaimReason, type Color, type GameState, getGame, pgnUrl, socketUrl } from './api.js';
import { h, replace } from './dom.js';
import { boardConfig, canMove, canUndo, colorOfPly, isPromotion, viewingHistory } from './ground.js';
import { type Key, t } from './i18n.js';
import { icon } from './icons.js';
import { newGameForm } from './newgame.js';
import { describePosition, type Letters, legalMoves, localiseSan, PROMOTION_ROLES, type PromotionRole, resolveInput, sanOf } from './notation.js';
import { resultText } from './result.js';
import { type GameEvent, GameSocket, RequestError } from './socket.js';
import { play, setSoundEnabled, soundEnabled } from './sound.js';

/** The current language's piece letters. */
export function currentLetters(): Letters {
  return {
    king: t('notation.king'),
    queen: t('notation.queen'),
    rook: t('notation.rook'),
    bishop: t('notation.bishop'),
    knight: t('notation.knight'),
  };
}

const PROMO_CHAR: Record<PromotionRole, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

function errorText(code: string): string {
  const key = `error.${code}` as Key;
  const s = t(key);
  return s === key ? t(code === 'disconnected' ? 'error.network' : 'error.generic') : s;
}

/** Renders the game page for game `id` into `root`; returns a re-render function (language change). */
export function gamePage(root: HTMLElement, id: string): () => void {
  let game: GameState | null = null;
  let orientation: Color = 'white';
  let pending = false;
  /** Plies shown when looking back through the game; null shows the game itself. */
  let viewPly: number | null = null;
  let promotion: { from: string; to: string } | null = null;
  let confirmingResign = false;
  let connected = true;
  let gone = false;
  let feedback = '';
  let socket: GameSocket | null = null;
  let ground: Api | null = null;

  // Persistent elements; `update()` fills them from the state.
  const boardEl = h('div', { class: 'board', 'data-testid': 'board' });
  const promoEl = h('div', { class: 'promotion', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'promo-title', 'data-testid': 'promotion', hidden: true });
  const opponentEl = h('div', { class: 'player-strip top', 'data-testid': 'opponent' });
  const youEl = h('div', { class: 'player-strip bottom', 'data-testid': 'you' });
  const bannerEl = h('div', { class: 'result-banner', 'data-testid': 'result', hidden: true });
  // Not a live region: the announcer below speaks moves and results once.
  const statusEl = h('p', { class: 'status', 'data-testid': 'status' });
  const infoEl = h('p', { class: 'game-info muted', 'data-testid': 'game-info' });
  const connEl = h('p', { class: 'connection', 'data-testid': 'connection', role: 'status', hidden: true });
  const announcer = h('div', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'announcer' });
  const movesTitle = h('h2', { id: 'moves-title', class: 'panel-title' });
  const movesEl = h('ol', { class: 'moves', 'data-testid': 'move-list', 'aria-labelledby': 'moves-title' });
  const movesBox = h('div', { class: 'moves-box' }, movesEl);
  const navButton = (testid: string, text: string, to: () => number | null) =>
    h('button', { type: 'button', class: 'icon-only nav', 'data-testid': testid, onclick: () => viewAt(to()) }, text);
  const navFirst = navButton('history-first', '«', () => 0);
  const navPrev = navButton('history-prev', '‹', () => Math.max(0, (viewPly ?? game?.moves.length ?? 0) - 1));
  const navNext = navButton('history-next', '›', () => (viewPly === null ? null : viewPly + 1));
  const navLive = navButton('history-last', '»', () => null);
  const historyNote = h('p', { class: 'history-note', 'data-testid': 'history-note', hidden: true });
  const historyLive = h('button', { type: 'button', class: 'link-button', 'data-testid': 'history-live', onclick: () => viewAt(null) });
  const positionSummary = h('summary', { 'data-testid': 'position-text-toggle' });
  const positionBody = h('div', { class: 'position-body' });
  const positionText = h('details', { class: 'position-text', 'data-testid': 'position-text' }, positionSummary, positionBody);
  const historyBox = h('div', { class: 'history' }, h('div', { class: 'history-nav' }, navFirst, navPrev, navNext, navLive), historyNote);
  const inputLabel = h('label', { for: 'move-input' });
  const input = h('input', {
    id: 'move-input',
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    enterkeyhint: 'send',
    list: 'legal-moves',
    'aria-describedby': 'move-help move-feedback',
    'data-testid': 'move-input',
  });
  // Suggestions while typing: the legal moves in the language's notation.
  const legalList = h('datalist', { id: 'legal-moves', 'data-testid': 'legal-moves' });
  const inputSubmit = h('button', { type: 'submit', class: 'icon-only', 'data-testid': 'move-submit' }, icon('enter'));
  const helpEl = h('p', { id: 'move-help', class: 'muted small' });
  const feedbackEl = h('p', { id: 'move-feedback', class: 'feedback', role: 'status', 'data-testid': 'move-feedback' });
  const inputForm = h('form', { class: 'move-form', 'data-testid': 'move-form' }, inputLabel, h('div', { class: 'input-row' }, input, legalList, inputSubmit), helpEl, feedbackEl);

  const button = (testid: string, iconName: Parameters<typeof icon>[0], onclick: () => void) => {
    const label = h('span', { class: 'label' });
    const b = h('button', { type: 'button', class: 'control', 'data-testid': testid, onclick: () => onclick() }, icon(iconName), label);
    return { b, label };
  };
  const flipBtn = button('flip-board', 'flip', () => {
    orientation = orientation === 'white' ? 'black' : 'white';
    renderBoard();
    update();
  });
  const undoBtn = button('undo', 'undo', () => void undo());
  const resignBtn = button('resign', 'flag', () => {
    confirmingResign = true;
    update();
    resignYes.focus();
  });
  const newBtn = button('new-game', 'plus', () => openNewGame());
  const soundBtn = button('sound-toggle', 'soundOn', () => {
    setSoundEnabled(!soundEnabled());
    update();
  });
  const pgnLabel = h('span', { class: 'label' });
  const pgnLink = h('a', { class: 'control', href: pgnUrl(id), download: `plyyard-${id}.pgn`, 'data-testid': 'download-pgn' }, icon('download'), pgnLabel);

  const resignText = h('p', { id: 'resign-text' });
  const resignYes = h('button', { type: 'button', class: 'danger', 'data-testid': 'resign-confirm', onclick: () => void resign() });
  const resignNo = h('button', {
    type: 'button',
    'data-testid': 'resign-cancel',
    onclick: () => {
      confirmingResign = false;
      update();
      resignBtn.b.focus();
    },
  });
  const resignBox = h('div', { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'resign-text', 'data-testid': 'resign-dialog', hidden: true }, resignText, h('div', { class: 'confirm-actions' }, resignYes, resignNo));

  const dialogTitle = h('h2', { id: 'new-game-title' });
  const dialogClose = h('button', { type: 'button', class: 'icon-only close', 'data-testid': 'new-game-close', onclick: () => dialog.close() }, '×');
  const dialogBody = h('div', {});
  const dialog = h('dialog', { class: 'new-game-dialog', 'aria-labelledby': 'new-game-title', 'data-testid': 'new-game-dialog' }, h('div', { class: 'dialog-head' }, dialogTitle, dialogClose), dialogBody);

  const claimBox = h('div', { class: 'claims', 'data-testid': 'claims', hidden: true });
  const claimWithMove = h('input', { type: 'checkbox', id: 'claim-with-move', 'data-testid': 'claim-with-move' });
  const claimWithMoveText = h('span', {});
  const claimWithMoveBox = h('label', { class: 'claim-with-move', for: 'claim-with-move', hidden: true }, claimWithMove, claimWithMoveText);
  const controls = h('div', { class: 'controls' }, flipBtn.b, undoBtn.b, resignBtn.b, newBtn.b, pgnLink, soundBtn.b);

  const page = h(
    'div',
    { class: 'game-page' },
    h('div', { class: 'board-column' }, opponentEl, h('div', { class: 'board-frame' }, boardEl, promoEl), youEl),
    h(
      'div',
      { class: 'side-column' },
      bannerEl,
      h('section', { class: 'card side-card' }, statusEl, infoEl, connEl, movesTitle, movesBox, historyBox, inputForm, claimWithMoveBox, positionText),
      claimBox,
      resignBox,
      controls,
    ),
    announcer,
    dialog,
  );

  inputForm.addEventListener('submit', (e) => {
    e.preventDefault();
    submitTyped();
  });

  const announce = (text: string) => {
    // Clearing first makes screen readers repeat identical messages.
    announcer.textContent = '';
    window.setTimeout(() => (announcer.textContent = text), 30);
  };

  /** Shows the position after `ply` plies (null or the last ply: the game itself). */
  function viewAt(ply: number | null): void {
    if (!game) return;
    viewPly = ply === null || ply >= game.moves.length ? null : Math.max(0, ply);
    renderBoard();
    update();
  }

  function renderBoard(): void {
    if (!game) return;
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const config = boardConfig(game, { orientation, pending, ply: viewPly, reducedMotion });
    if (!ground) {
      ground = Chessground(boardEl, {
        ...config,
        movable: { ...config.movable, events: { after: (orig, dest) => onBoardMove(orig, dest) } },
      });
    } else {
      ground.set(config);
    }
  }

  function onBoardMove(from: SquareKey, to: SquareKey): void {
    if (!game) return;
    feedback = '';
    if (isPromotion(game, from, to)) {
      promotion = { from, to };
      update();
      promoEl.querySelector('button')?.focus();
      return;
    }
    void sendMove(from + to);
  }

  /** Under FIDE rules, announces `uci` with a draw claim; false when no claim holds (nothing was played). */
  async function claimWith(sock: GameSocket, uci: string): Promise<boolean> {
    for (const reason of ['threefold_repetition', 'fifty_moves'] as const) {
      try {
        await sock.request({ t: 'claim', reason, uci });
        return true;
      } catch (e) {
        if (!(e instanceof RequestError && e.code === 'cannot_claim')) throw e;
      }
    }
    return false;
  }

  async function sendMove(uci: string): Promise<void> {
    if (!socket) return;
    pending = true;
    update();
    try {
      const claiming = claimWithMove.checked && game?.rules === 'fide';
      if (!claiming || !(await claimWith(socket, uci))) {
        await socket.request({ t: 'move', uci });
        if (claiming) feedback = t('game.claim.none');
      }
      claimWithMove.checked = false;
      input.value = '';
    } catch (e) {
      feedback = errorText(e instanceof RequestError ? e.code : 'generic');
      renderBoard();
    } finally {
      pending = false;
      update();
    }
  }

  function choosePromotion(role: PromotionRole | null): void {
    const p = promotion;
    promotion = null;
    update();
    if (!p || role === null) {
      renderBoard();
      if (!inputForm.hidden) input.focus();
      return;
    }
    void sendMove(p.from + p.to + PROMO_CHAR[role]);
  }

  function submitTyped(): void {
    if (!game) return;
    const text = input.value;
    if (text.trim() === '') return;
    if (!canMove(game, pending)) {
      feedback = t('game.moveInput.notYourTurn');
      update();
      return;
    }
    if (viewPly !== null) viewAt(null);
    const letters = currentLetters();
    const moves = legalMoves(game.fen, game.dests);
    const res = resolveInput(text, moves, letters);
    switch (res.kind) {
      case 'move':
        feedback = '';
        void sendMove(res.move.uci);
        break;
      case 'promotion':
        feedback = '';
        promotion = { from: res.from, to: res.to };
        update();
        promoEl.querySelector('button')?.focus();
        return;
      case 'ambiguous':
        feedback = t('game.moveInput.ambiguous', { input: text.trim(), list: res.moves.map((m) => sanOf(m, moves, letters)).join(', ') });
        break;
      case 'none':
        feedback = t('game.moveInput.unknown', { input: text.trim() });
        break;
    }
    update();
  }

  async function undo(): Promise<void> {
    if (!socket) return;
    try {
      await socket.request({ t: 'undo' });
      feedback = '';
    } catch (e) {
      feedback = errorText(e instanceof RequestError ? e.code : 'generic');
    }
    update();
  }

  async function claim(reason: ClaimReason): Promise<void> {
    if (!socket) return;
    try {
      await socket.request({ t: 'claim', reason });
      feedback = '';
    } catch (e) {
      feedback = errorText(e instanceof RequestError ? e.code : 'generic');
    }
    update();
  }

  async function resign(): Promise<void> {
    if (!socket) return;
    confirmingResign = false;
    try {
      await socket.request({ t: 'resign' });
    } catch (e) {
      feedback = errorText(e instanceof RequestError ? e.code : 'generic');
    }
    update();
  }

  function openNewGame(): void {
    dialogTitle.textContent = t('home.play.title');
    replace(dialogBody, newGameForm());
    if (!dialog.open) dialog.showModal();
  }

  function onState(next: GameState, event: GameEvent | null): void {
    game = next;
    // Any change brings the board back to the game itself.
    if (event || (viewPly !== null && viewPly >= next.moves.length)) viewPly = null;
    if (next.you && !ground) orientation = next.you;
    if (event) reactTo(next, event);
    renderBoard();
    update();
  }

  function reactTo(g: GameState, event: GameEvent): void {
    const letters = currentLetters();
    if (event.kind === 'move' && event.move) {
      const san = localiseSan(event.move.san, letters);
      const mover = colorOfPly(g.initial_fen, g.moves.length - 1);
      const who: Key =
        g.you === null ? (mover === 'white' ? 'announce.whiteMove' : 'announce.blackMove') : mover === g.you ? 'announce.yourMove' : 'announce.computerMove';
      const parts = [t(who, { move: san })];
      if (g.check && g.status === 'ongoing') parts.push(t('announce.check'));
      if (g.status !== 'ongoing') {
        const r = resultText(g.result, g.you, g.reason);
        parts.push([r.headline, r.reason].filter(Boolean).join(', ') + '.');
        play('end');
      } else {
        play(g.check ? 'check' : event.move.san.includes('x') ? 'capture' : 'move');
      }
      announce(parts.join(' '));
    } else if (event.kind === 'undo') {
      announce(t('announce.undo'));
    } else if (event.kind === 'end') {
      const r = resultText(g.result, g.you, g.reason);
      announce([r.headline, r.reason].filter(Boolean).join(', ') + '.');
      play('end');
    }
  }

  function renderMoves(g: GameState): void {
    const letters = currentLetters();
    const fields = g.initial_fen.split(' ');
    const blackFirst = fields[1] === 'b';
    const firstNumber = Number(fields[5]) || 1;
    const rows: HTMLElement[] = [];
    const plies = g.moves.map((m) => localiseSan(m.san, letters));
    let i = 0;
    let number = firstNumber;
    while (i < plies.length) {
      const cells: HTMLElement[] = [];
      const shown = viewPly ?? plies.length;
      const mk = (ply: number) =>
        h(
          'button',
          {
            type: 'button',
            class: `move${ply === shown - 1 ? ' current' : ''}`,
            'aria-current': ply === shown - 1 ? 'step' : null,
            'data-testid': 'move',
            'data-ply': ply + 1,
            'data-uci': g.moves[ply]!.uci,
            onclick: () => viewAt(ply + 1),
          },
          plies[ply]!,
        );
      if (i === 0 && blackFirst) {
        cells.push(h('span', { class: 'move empty', 'aria-hidden': 'true' }, '…'), mk(0));
        i = 1;
      } else {
        cells.push(mk(i));
        if (i + 1 < plies.length) cells.push(mk(i + 1));
        i += 2;
      }
      rows.push(h('li', { value: number }, h('span', { class: 'num', 'aria-hidden': 'true' }, `${number}.`), ...cells));
      number++;
    }
    if (rows.length === 0) replace(movesEl, h('li', { class: 'none muted' }, t('game.moves.none')));
    else replace(movesEl, ...rows);
    if (viewPly === null) movesBox.scrollTop = movesBox.scrollHeight;
    else movesEl.querySelector('.move.current')?.scrollIntoView({ block: 'nearest' });
  }

  function strip(el: HTMLElement, color: Color, name: string, thinking: boolean, yourTurn: boolean): void {
    replace(
      el,
      h('span', { class: `piece-dot ${color}`, 'aria-hidden': 'true' }),
      h('span', { class: 'player-name' }, name),
      thinking ? h('span', { class: 'thinking', 'data-testid': 'thinking', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')) : null,
      // A reminder next to the board on small screens, where the status line is further down.
      yourTurn ? h('span', { class: 'turn-pill', 'aria-hidden': 'true' }, t('game.turn.you')) : null,
    );
  }

  function update(): void {
    if (!game) return;
    const g = game;
    const ongoing = g.status === 'ongoing';
    const levelName = g.level ? t(`level.${g.level}` as Key) : '';
    const computerName = t('game.vsComputer', { level: levelName });
    document.title = `${computerName} · ${t('site.name')}`;

    // Strips: the bottom one is the side at the bottom of the board.
    const bottom = orientation;
    const top: Color = bottom === 'white' ? 'black' : 'white';
    const nameOf = (c: Color) => (g.you === c ? t('game.you') : g.you === null ? t(`color.${c}` as Key) : computerName);
    const thinkingOf = (c: Color) => ongoing && g.you !== null && c !== g.you && (g.thinking || g.turn === c);
    const yourTurn = (c: Color) => c === g.you && canMove(g, pending);
    strip(opponentEl, top, nameOf(top), thinkingOf(top), yourTurn(top));
    strip(youEl, bottom, nameOf(bottom), thinkingOf(bottom), yourTurn(bottom));
    boardEl.setAttribute('aria-label', t('game.board'));
    boardEl.setAttribute('role', 'img');

    // Banner and status line.
    statusEl.dataset.state = !ongoing ? 'over' : g.you === null ? 'spectator' : canMove(g, pending) ? 'your-turn' : 'waiting';
    if (!ongoing) {
      const r = resultText(g.result, g.you, g.reason);
      bannerEl.hidden = false;
      bannerEl.className = `result-banner ${r.tone}`;
      replace(bannerEl, h('strong', { 'data-testid': 'result-headline' }, r.headline), r.reason ? h('span', { 'data-testid': 'result-reason' }, r.reason) : null);
      statusEl.textContent = [r.headline, r.reason].filter(Boolean).join(' · ');
    } else {
      bannerEl.hidden = true;
      if (g.you === null) statusEl.textContent = t('game.spectator');
      else if (g.thinking || g.turn !== g.you) statusEl.textContent = g.thinking ? t('game.turn.computer') : t('game.turn.waiting');
      else statusEl.textContent = t('game.turn.you') + (g.check ? ` · ${t('announce.check')}` : '');
    }
    const variantText = g.variant === 'chess960' ? t('game.variant.chess960', { n: g.position ?? '?' }) : t('variant.standard');
    infoEl.textContent = [variantText, g.rules === 'fide' || g.rules === 'plyyard' ? t(`rules.${g.rules}`) : null].filter(Boolean).join(' · ');

    claimWithMoveBox.hidden = g.rules !== 'fide' || g.you === null || !ongoing;
    claimWithMoveText.textContent = t('game.claimWithMove');
    const claims = canMove(g, pending) ? (g.claimable ?? []) : [];
    claimBox.hidden = claims.length === 0;
    replace(
      claimBox,
      ...claims.map((reason) =>
        h('button', { type: 'button', class: 'control claim', 'data-testid': `claim-${reason}`, onclick: () => void claim(reason) }, t(`game.claim.${reason}` as Key)),
      ),
    );
    connEl.hidden = connected && !gone;
    connEl.textContent = gone ? t('error.gone') : t('conn.reconnecting');

    movesTitle.textContent = t('game.moves');
    renderMoves(g);
    const viewing = viewingHistory(g, { ply: viewPly });
    const shownPly = viewing ? viewPly! : g.moves.length;
    navFirst.disabled = shownPly === 0;
    navPrev.disabled = shownPly === 0;
    navNext.disabled = !viewing;
    navLive.disabled = !viewing;
    for (const [b, key] of [
      [navFirst, 'game.history.first'],
      [navPrev, 'game.history.prev'],
      [navNext, 'game.history.next'],
      [navLive, 'game.history.live'],
    ] as const) {
      b.setAttribute('aria-label', t(key));
      b.title = t(key);
    }
    historyNote.hidden = !viewing;
    positionSummary.textContent = t('game.position.title');
    const shownFen = boardConfig(g, { orientation, pending, ply: viewPly }).fen ?? g.fen;
    const described = describePosition(shownFen);
    replace(
      positionBody,
      ...(['white', 'black'] as const).map((side) =>
        h(
          'p',
          { 'data-testid': `position-${side}` },
          t('game.position.side', {
            side: t(`color.${side}` as Key),
            pieces: described[side].map(([role, squares]) => `${t(`piece.${role}` as Key)} ${squares.join(', ')}`).join('; '),
          }),
        ),
      ),
    );
    historyLive.textContent = t('game.history.live');
    replace(historyNote, t('game.history.viewing'), ' ', historyLive);

    const letters = currentLetters();
    inputLabel.textContent = t('game.moveInput.label');
    input.placeholder = t('game.moveInput.placeholder');
    helpEl.textContent = t('game.moveInput.help', { letters: [letters.king, letters.queen, letters.rook, letters.bishop, letters.knight].join(' ') });
    inputSubmit.setAttribute('aria-label', t('game.moveInput.submit'));
    inputSubmit.title = t('game.moveInput.submit');
    feedbackEl.textContent = feedback;
    const legal = canMove(g, pending) ? legalMoves(g.fen, g.dests) : [];
    const suggestions = legal.map((m) => sanOf(m, legal, letters)).sort();
    if (legalList.dataset.key !== suggestions.join(' ')) {
      legalList.dataset.key = suggestions.join(' ');
      replace(legalList, ...suggestions.map((san) => h('option', { value: san })));
    }
    inputForm.hidden = g.you === null || !ongoing;

    flipBtn.label.textContent = t('game.flip');
    undoBtn.label.textContent = t('game.undo');
    resignBtn.label.textContent = t('game.resign');
    newBtn.label.textContent = t('game.newGame');
    pgnLabel.textContent = t('game.pgn');
    const soundOn = soundEnabled();
    soundBtn.label.textContent = t(soundOn ? 'game.sound.on' : 'game.sound.off');
    soundBtn.b.setAttribute('aria-pressed', String(soundOn));
    replace(soundBtn.b, icon(soundOn ? 'soundOn' : 'soundOff'), soundBtn.label);
    undoBtn.b.disabled = !canUndo(g);
    undoBtn.b.hidden = g.you === null;
    resignBtn.b.disabled = !ongoing;
    resignBtn.b.hidden = g.you === null;

    resignBox.hidden = !confirmingResign || !ongoing;
    resignText.textContent = t('game.resign.confirm');
    resignYes.textContent = t('game.resign.yes');
    resignNo.textContent = t('game.resign.no');

    // Promotion picker.
    promoEl.hidden = promotion === null;
    // Rebuilt only when it changes, so the focused choice keeps its focus.
    const promoKey = promotion && g.you ? `${promotion.from}${promotion.to}:${g.you}:${t('promotion.title')}` : '';
    if (promotion && g.you && promoEl.dataset.key !== promoKey) {
      promoEl.dataset.key = promoKey;
      const you = g.you;
      replace(
        promoEl,
        h('p', { id: 'promo-title', class: 'promo-title' }, t('promotion.title')),
        h(
          'div',
          { class: 'promo-choices cg-wrap' },
          ...PROMOTION_ROLES.map((role) =>
            h(
              'button',
              { type: 'button', class: 'promo-choice', 'aria-label': t(`piece.${role}` as Key), title: t(`piece.${role}` as Key), 'data-testid': `promotion-${role}`, onclick: () => choosePromotion(role) },
              h('piece', { class: `${you} ${role}` }),
            ),
          ),
        ),
        h('button', { type: 'button', class: 'promo-cancel', 'data-testid': 'promotion-cancel', onclick: () => choosePromotion(null) }, t('promotion.cancel')),
      );
    }
    dialogTitle.textContent = t('home.play.title');
    dialogClose.setAttribute('aria-label', t('promotion.cancel'));
  }

  // Arrow keys step through the game, unless typing in a field.
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (!game || !root.contains(page) || target?.closest('input, textarea, select, dialog') || e.altKey || e.ctrlKey || e.metaKey) return;
    const shown = viewPly ?? game.moves.length;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: game.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    viewAt(Math.max(0, to));
  };
  document.addEventListener('keydown', onKey);

  promoEl.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') choosePromotion(null);
  });

  // Loading.
  replace(root, h('p', { class: 'muted loading', 'aria-busy': 'true' }, '…'));
  getGame(id)
    .then((g) => {
      replace(root, page);
      onState(g, null);
      socket = new GameSocket((v) => socketUrl(id, v), g.v, {
        state: onState,
        connection: (open) => {
          connected = open;
          update();
        },
        error: (code) => {
          feedback = errorText(code);
          update();
        },
        gone: () => {
          gone = true;
          update();
        },
      });
      window.addEventListener('pagehide', () => socket?.close());
      window.addEventListener('offline', () => socket?.drop());
      window.addEventListener('online', () => socket?.retryNow());
    })
    .catch((e: unknown) => {
      const missing = e instanceof ApiError && (e.status === 404 || e.code === 'not_found');
      replace(
        root,
        h(
          'div',
          { class: 'card not-found', 'data-testid': 'game-error' },
          h('h1', {}, missing ? t('game.notFound') : t('error.network')),
          h('a', { href: '/', class: 'button primary', 'data-testid': 'back-home' }, icon('home'), t('game.backHome')),
        ),
      );
    });

  return () => {
    if (game) update();
    if (dialog.open) openNewGame();
  };
}
