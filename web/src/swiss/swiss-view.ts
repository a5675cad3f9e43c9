//! A Swiss page: its name, status and round, the viewer's join or
//! withdraw button, a leader's next-round button, the TRF download, the
//! results (points, Sonneborn-Berger, Buchholz, performance), each
//! round's pairings, and the chat for those its `chatFor` lets in.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { t } from '../i18n.js';
import { chatLineReport } from '../moderation/report-link.js';
import { authPath, clubPath, swissPath } from '../route.js';
import { type SwissInfo, type SwissRound, trfPath } from './api.js';
import { SWISS_CHAT_MAX, type SwissCtrl } from './swiss-ctrl.js';

function button(label: string, testid: string, ctrl: SwissCtrl, click: () => void): VNode {
  return h('button', { attrs: { type: 'button', 'data-testid': testid }, props: { disabled: ctrl.busy }, on: { click } }, label);
}

function actions(ctrl: SwissCtrl): VNode {
  const s = ctrl.swiss!;
  if (!ctrl.me()) return h('p', [h('a', { attrs: { href: authPath('login', swissPath(s.id)), 'data-testid': 'swiss-login' } }, t('swiss.loginToJoin'))]);
  const mine = ctrl.mine();
  const open = s.status !== 'finished';
  return h('div.swiss-actions', [
    open && (!mine || mine.absent) ? button(t('swiss.join'), 'swiss-join', ctrl, () => void ctrl.join()) : null,
    open && mine && !mine.absent ? button(t('swiss.withdraw'), 'swiss-withdraw', ctrl, () => void ctrl.withdraw()) : null,
    ctrl.canStartRound() ? button(t('swiss.nextRound'), 'swiss-next-round', ctrl, () => void ctrl.startRound()) : null,
    ctrl.error ? h('p.error', { attrs: { role: 'alert', 'data-testid': 'swiss-error' } }, ctrl.error) : null,
  ]);
}

function results(ctrl: SwissCtrl): VNode {
  if (ctrl.results.length === 0) return h('p.muted', { attrs: { 'data-testid': 'swiss-no-players' } }, t('swiss.noPlayers'));
  return h('table.swiss-results', { attrs: { 'data-testid': 'swiss-results' } }, [
    h('thead', h('tr', [h('th', '#'), h('th', t('swiss.player')), h('th', t('swiss.points')), h('th', t('swiss.sonnebornBerger')), h('th', t('swiss.buchholz')), h('th', t('swiss.performance'))])),
    h(
      'tbody',
      ctrl.results.map((r) =>
        h('tr', { attrs: { 'data-testid': 'swiss-result', 'data-username': r.username } }, [
          h('td', String(r.rank)),
          h('td', [h('a', { attrs: { href: profilePath(r.username) } }, r.username), r.absent ? h('span.muted', ` (${t('swiss.absent')})`) : null]),
          h('td', String(r.points)),
          h('td', String(r.tieBreak)),
          h('td', String(r.buchholz)),
          h('td', r.performance === undefined ? '' : String(r.performance)),
        ]),
      ),
    ),
  ]);
}

function round(r: SwissRound): VNode {
  return h('section.swiss-round', { attrs: { 'data-testid': 'swiss-round', 'data-round': String(r.round) } }, [
    h('h3', t('swiss.roundN', { n: r.round })),
    h(
      'ol',
      r.boards.map((b) => h('li', { attrs: { 'data-testid': 'swiss-board' } }, [h('a', { attrs: { href: `/game/${encodeURIComponent(b.gameId)}` } }, `${b.white} – ${b.black}`), ` ${b.result}`])),
    ),
    r.bye ? h('p', { attrs: { 'data-testid': 'swiss-bye' } }, t('swiss.bye', { name: r.bye })) : null,
  ]);
}

function chat(ctrl: SwissCtrl): VNode | null {
  if (ctrl.chat === null) return null;
  return h('section.card.chat.swiss-chat', { attrs: { 'aria-labelledby': 'swiss-chat-title', 'data-testid': 'swiss-chat' } }, [
    h('h2', { attrs: { id: 'swiss-chat-title' } }, t('arena.chat')),
    h(
      'ol.chat-lines',
      { attrs: { 'aria-live': 'polite', 'data-testid': 'swiss-chat-lines' } },
      ctrl.chat.length
        ? ctrl.chat.map((l) =>
            h('li.chat-line', { attrs: { 'data-testid': 'swiss-chat-line' } }, [
              h('strong.chat-user', l.user),
              ' ',
              h('span.chat-text', l.text),
              chatLineReport(l.user, l.text, swissPath(ctrl.id), ctrl.me(), 'swiss-chat-report'),
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
            void ctrl.say();
          },
        },
      },
      [
        h('input', {
          attrs: { type: 'text', maxlength: SWISS_CHAT_MAX, 'aria-label': t('arena.chat.say'), placeholder: t('arena.chat.say'), 'data-testid': 'swiss-chat-input' },
          props: { value: ctrl.chatInput },
          on: { input: (e: Event) => ctrl.setChatInput((e.target as HTMLInputElement).value) },
        }),
        h('button', { attrs: { type: 'submit', 'data-testid': 'swiss-chat-send' } }, t('arena.chat.send')),
      ],
    ),
    ctrl.chatError ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'swiss-chat-error' } }, ctrl.chatError) : null,
  ]);
}

function statusText(status: SwissInfo['status']): string {
  if (status === 'created') return t('swiss.status.created');
  return status === 'started' ? t('swiss.status.started') : t('swiss.status.finished');
}

/** The Swiss page. */
export function swissView(ctrl: SwissCtrl): VNode {
  const s = ctrl.swiss;
  if (!s) return h('main.swiss', { attrs: { 'data-testid': 'swiss-page' } }, [h('p', ctrl.loadError ?? t('swiss.loading'))]);
  return h('main.swiss', { attrs: { 'data-testid': 'swiss-page' } }, [
    h('h1', { attrs: { 'data-testid': 'swiss-name' } }, s.name),
    h('p', { attrs: { 'data-testid': 'swiss-status', 'data-status': s.status } }, [
      statusText(s.status),
      ' · ',
      t('swiss.roundOf', { n: s.round, of: s.nbRounds }),
      ' · ',
      h('a', { attrs: { href: clubPath(s.teamId) } }, s.teamId),
    ]),
    actions(ctrl),
    h('p', [h('a', { attrs: { href: trfPath(s.id), download: `plyyard_swiss_${s.id}.trf`, 'data-testid': 'swiss-trf' } }, t('swiss.trf'))]),
    h('h2', t('swiss.results')),
    results(ctrl),
    h('h2', t('swiss.pairings')),
    ...[...ctrl.rounds].reverse().map(round),
    chat(ctrl),
  ]);
}
