//! An Arena's page: its name and terms, the countdown, the viewer's
//! join / pause / rejoin, the podium once finished, the standing (rank,
//! name, rating, sheet, score, fire) in pages, a player's sheet, the
//! chat.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { lang, t } from '../i18n.js';
import { chatLineReport } from '../moderation/report-link.js';
import { authPath, clubPath } from '../route.js';
import type { ArenaPlayer } from './api.js';
import { ARENA_CHAT_MAX, type ArenaCtrl } from './ctrl.js';
import { arenaPath, clockText, countdownText, sheetDigits, standingPages, statusKey } from './model.js';

function sheetView(scores: string, fire: boolean | undefined): VNode {
  return h(
    'span.arena-sheet',
    { attrs: { 'data-testid': 'arena-sheet-digits' } },
    sheetDigits(scores).map((d) => h(`span.arena-score${Number(d) >= 4 ? '.double' : ''}`, d)).concat(fire ? [h('span.arena-fire', { attrs: { title: t('arena.onFire'), 'data-testid': 'arena-fire' } }, '🔥')] : []),
  );
}

function playerRow(ctrl: ArenaCtrl, p: ArenaPlayer): VNode {
  const me = ctrl.arena?.me?.username === p.name;
  return h(`tr.arena-standing${me ? '.me' : ''}${p.withdraw ? '.paused' : ''}`, { attrs: { 'data-testid': 'arena-standing-row', 'data-name': p.name, 'data-score': String(p.score) } }, [
    h('td.rank', String(p.rank)),
    h('td', [
      h('button.link-button', { attrs: { type: 'button', 'data-testid': 'arena-player' }, on: { click: () => ctrl.showSheet(p.name) } }, p.name),
      p.withdraw ? h('span.muted.small', ` (${t('arena.paused')})`) : null,
    ]),
    h('td.rating', String(p.rating)),
    h('td', sheetView(p.sheet.scores, p.sheet.fire)),
    h('td.score', { attrs: { 'data-testid': 'arena-score' } }, String(p.score)),
  ]);
}

function standing(ctrl: ArenaCtrl): VNode {
  const a = ctrl.arena!;
  const pages = standingPages(a.nbPlayers);
  return h('section.card.arena-standing-card', { attrs: { 'aria-labelledby': 'arena-standing-title' } }, [
    h('h2', { attrs: { id: 'arena-standing-title' } }, t('arena.standing')),
    a.standing.players.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'arena-standing-empty' } }, t('arena.standing.none'))
      : h('table.arena-table', { attrs: { 'data-testid': 'arena-standing' } }, [
          h('thead', h('tr', [h('th', t('arena.col.rank')), h('th', t('arena.col.player')), h('th', t('arena.col.rating')), h('th', t('arena.col.sheet')), h('th', t('arena.col.score'))])),
          h('tbody', a.standing.players.map((p) => playerRow(ctrl, p))),
        ]),
    pages > 1
      ? h('nav.pager', { attrs: { 'aria-label': t('arena.pages') } }, [
          ctrl.page > 1 ? h('button', { attrs: { type: 'button', 'data-testid': 'arena-prev' }, on: { click: () => ctrl.goto(ctrl.page - 1) } }, t('clubs.prev')) : h('span'),
          h('span.muted.small', t('clubs.page', { n: ctrl.page, total: pages })),
          ctrl.page < pages ? h('button', { attrs: { type: 'button', 'data-testid': 'arena-next' }, on: { click: () => ctrl.goto(ctrl.page + 1) } }, t('clubs.next')) : h('span'),
        ])
      : null,
    sheetPanel(ctrl),
  ]);
}

function sheetPanel(ctrl: ArenaCtrl): VNode | null {
  const s = ctrl.sheet;
  if (!s) return null;
  return h('div.arena-player-sheet', { attrs: { 'data-testid': 'arena-player-sheet', 'data-name': s.username } }, [
    h('h3', [h('a', { attrs: { href: profilePath(s.username) } }, s.username)]),
    h('p', t('arena.sheet.facts', { rank: s.rank, score: s.score, rating: s.rating, performance: s.performance })),
    s.sheet ? h('p', [t('arena.col.sheet'), ': ', sheetView(s.sheet.scores, s.sheet.fire)]) : null,
    h('p.muted.small', t('arena.sheet.games', { n: s.sheet ? s.sheet.scores.length : 0 })),
  ]);
}

function podium(ctrl: ArenaCtrl): VNode | null {
  const p = ctrl.arena?.podium;
  if (!p || p.length === 0) return null;
  return h('section.card.arena-podium', { attrs: { 'data-testid': 'arena-podium' } }, [
    h('h2', t('arena.podium')),
    h(
      'ol',
      p.map((x) => h('li', { attrs: { 'data-testid': 'arena-podium-place', 'data-name': x.name } }, [h('strong', x.name), ` — ${t('arena.points', { n: x.score })}`])),
    ),
  ]);
}

function countdown(ctrl: ArenaCtrl): VNode | null {
  const a = ctrl.arena!;
  const left = ctrl.remaining();
  if (a.isFinished || left === null) return h('p.arena-status', { attrs: { 'data-testid': 'arena-finished' } }, t('arena.status.finished'));
  return h('p.arena-countdown', { attrs: { 'data-testid': 'arena-countdown', 'data-state': a.isStarted ? 'running' : 'waiting' } }, [
    t(a.isStarted ? 'arena.endsIn' : 'arena.startsIn'),
    ' ',
    h('strong', countdownText(left)),
  ]);
}

function actions(ctrl: ArenaCtrl): VNode | null {
  const a = ctrl.arena!;
  if (a.isFinished) return null;
  if (!ctrl.ctx.account()) return h('p', [h('a', { attrs: { href: authPath('login', arenaPath(a.id)), 'data-testid': 'arena-join-login' } }, t('arena.loginToJoin'))]);
  const me = a.me;
  const btn = (label: string, testid: string, click: () => void, kind = '') => h(`button${kind}`, { attrs: { type: 'button', 'data-testid': testid }, props: { disabled: ctrl.busy }, on: { click } }, label);
  let body: Array<VNode | null>;
  if (!me || me.withdraw) {
    body = [
      a.private && !me
        ? h('div.field', [
            h('label', { attrs: { for: 'arena-join-password' } }, t('arena.form.password')),
            h('input#arena-join-password', { attrs: { type: 'password', autocomplete: 'off', 'data-testid': 'arena-join-password' }, props: { value: ctrl.password }, on: { input: (e: Event) => (ctrl.password = (e.target as HTMLInputElement).value) } }),
          ])
        : null,
      btn(t(me ? 'arena.rejoin' : 'arena.join'), 'arena-join', () => ctrl.join(), '.primary'),
      me ? h('p.muted.small', { attrs: { 'data-testid': 'arena-paused' } }, t('arena.youPaused')) : null,
    ];
  } else {
    body = [
      h('p', { attrs: { 'data-testid': 'arena-joined' } }, t('arena.youAreIn', { rank: me.rank })),
      me.gameId ? h('p', [h('a.button.primary', { attrs: { href: `/game/${encodeURIComponent(me.gameId)}`, 'data-testid': 'arena-current-game' } }, t('arena.yourGame'))]) : null,
      btn(t(a.isStarted ? 'arena.pause' : 'arena.withdraw'), 'arena-withdraw', () => ctrl.withdraw()),
    ];
  }
  return h('div.arena-actions', { attrs: { 'data-testid': 'arena-actions', 'data-state': !me ? 'outside' : me.withdraw ? 'paused' : 'in' } }, [
    ...body,
    ctrl.isCreator() ? btn(t(ctrl.confirmingEnd ? 'arena.terminate.confirm' : 'arena.terminate'), 'arena-terminate', () => ctrl.terminate(), '.danger') : null,
    ctrl.actionError ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'arena-action-error' } }, ctrl.actionError) : null,
  ]);
}

function chat(ctrl: ArenaCtrl): VNode | null {
  if (!ctrl.arena?.hasChat || !ctrl.ctx.account() || ctrl.chat === null) return null;
  return h('section.card.chat.arena-chat', { attrs: { 'aria-labelledby': 'arena-chat-title', 'data-testid': 'arena-chat' } }, [
    h('h2', { attrs: { id: 'arena-chat-title' } }, t('arena.chat')),
    h(
      'ol.chat-lines',
      { attrs: { 'aria-live': 'polite', 'data-testid': 'arena-chat-lines' } },
      ctrl.chat.length
        ? ctrl.chat.map((l) =>
            h('li.chat-line', { attrs: { 'data-testid': 'arena-chat-line' } }, [
              h('strong.chat-user', l.user),
              ' ',
              h('span.chat-text', l.text),
              chatLineReport(l.user, l.text, arenaPath(ctrl.id), ctrl.ctx.account()?.username ?? null, 'arena-chat-report'),
            ]),
          )
        : [h('li.muted.small', t('chat.empty'))],
    ),
    h(
      'form.chat-form',
      {
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            ctrl.say();
          },
        },
      },
      [
        h('input', {
          attrs: { type: 'text', maxlength: ARENA_CHAT_MAX, 'aria-label': t('arena.chat.say'), placeholder: t('arena.chat.say'), 'data-testid': 'arena-chat-input' },
          props: { value: ctrl.chatInput },
          on: { input: (e: Event) => ctrl.setChatInput((e.target as HTMLInputElement).value) },
        }),
        h('button', { attrs: { type: 'submit', 'data-testid': 'arena-chat-send' } }, t('arena.chat.send')),
      ],
    ),
    ctrl.chatError ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'arena-chat-error' } }, ctrl.chatError) : null,
  ]);
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** The whole page. */
export function arenaView(ctrl: ArenaCtrl): VNode {
  const a = ctrl.arena;
  if (!a) {
    return h('div.arena-page', { attrs: { 'data-testid': 'arena-page' } }, [
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'arena-error' } }, ctrl.error) : h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…'),
    ]);
  }
  return h('div.arena-page', { attrs: { 'data-testid': 'arena-page', 'data-id': a.id, 'data-status': String(a.status) } }, [
    h('section.card.arena-head', [
      h('h1', { attrs: { 'data-testid': 'arena-name' } }, a.fullName),
      h('p.muted', [
        clockText(a.clock),
        ' · ',
        t('arena.minutes', { n: a.minutes }),
        ' · ',
        t(a.rated ? 'multiplayer.rated' : 'multiplayer.casual'),
        a.berserkable ? ` · ${t('arena.berserkable')}` : '',
        ' · ',
        t('arena.players', { n: a.nbPlayers }),
        ' · ',
        t(statusKey(a)),
        ' · ',
        when(a.startsAt),
      ]),
      a.teamMember ? h('p', [t('arena.clubOnly'), ' ', h('a', { attrs: { href: clubPath(a.teamMember), 'data-testid': 'arena-club' } }, a.teamMember)]) : null,
      a.description ? h('p.arena-description', a.description) : null,
      countdown(ctrl),
      actions(ctrl),
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert' } }, ctrl.error) : null,
    ]),
    podium(ctrl),
    standing(ctrl),
    chat(ctrl),
    h('p', [h('a', { attrs: { href: '/tournament', 'data-testid': 'arena-back' } }, t('arena.back'))]),
  ]);
}
