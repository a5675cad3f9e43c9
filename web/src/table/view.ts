//! The table page as a function of its controller: the waiting room (for
//! the host: the code, the link, copy, cancel; for others: sit down, or log
//! in first), a closed or unknown table, and then the game page itself.
import { h, type VNode } from 'snabbdom';
import { gameView } from '../game/view.js';
import { t, tp } from '../i18n.js';
import { icon } from '../icons.js';
import { loginFirst, tableParts } from '../multiplayer/view.js';
import { minutesUntil, ratingLabel } from '../tables.js';
import type { TableCtrl } from './ctrl.js';

function backLink(): VNode {
  return h('a.button', { attrs: { href: '/multiplayer', 'data-testid': 'back-multiplayer' } }, [icon('home'), t('table.backToLobby')]);
}

function notice(testid: string, title: string, body: string | null): VNode {
  return h('div.card.not-found', { attrs: { 'data-testid': testid } }, [h('h1', title), body ? h('p', body) : null, backLink()]);
}

function settings(ctrl: TableCtrl): VNode {
  const table = ctrl.table!;
  return h('p.table-settings', { attrs: { 'data-testid': 'table-settings' } }, [...tableParts(table), t(table.public ? 'table.public' : 'table.private')].join(' · '));
}

function hostRoom(ctrl: TableCtrl): VNode {
  const table = ctrl.table!;
  const minutes = minutesUntil(table.expires_at);
  return h('section.card.waiting-room', { attrs: { 'aria-labelledby': 'table-title', 'data-testid': 'waiting-room' } }, [
    h('h1', { attrs: { id: 'table-title' } }, t('table.waiting.title')),
    settings(ctrl),
    h('p', t('table.waiting.give')),
    h('p.table-code', { attrs: { 'data-testid': 'table-code', 'aria-label': t('table.code.spelt', { code: table.code.split('').join(' ') }) } }, table.code),
    h('div.field.wide', [
      h('label', { attrs: { for: 'table-link' } }, t('table.link')),
      h('div.input-row', [
        h('input', { attrs: { id: 'table-link', type: 'text', readonly: true, 'data-testid': 'table-link' }, props: { value: ctrl.link() }, on: { focus: (e: Event) => (e.target as HTMLInputElement).select() } }),
        h('button.primary', { attrs: { type: 'button', 'data-testid': 'copy-link' }, on: { click: () => ctrl.copyLink() } }, [icon('copy'), t('table.copy')]),
      ]),
      h('p.small', { attrs: { role: 'status', 'data-testid': 'copy-status' } }, ctrl.copied === null ? '' : t(ctrl.copied ? 'table.copied' : 'table.copyFailed')),
    ]),
    h('p.waiting', { attrs: { 'aria-busy': 'true' } }, [h('span.thinking', { attrs: { 'aria-hidden': 'true' } }, [h('i'), h('i'), h('i')]), ' ', t('table.waiting.opponent')]),
    minutes !== null ? h('p.muted.small', tp('table.waiting.expires', minutes)) : null,
    h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'table-error' } }, ctrl.error ?? ''),
    h('button.danger', { attrs: { type: 'button', 'data-testid': 'cancel-table' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.cancel() } }, t('table.cancel')),
  ]);
}

function visitorRoom(ctrl: TableCtrl): VNode {
  const table = ctrl.table!;
  const account = ctrl.ctx.account();
  return h('section.card.waiting-room', { attrs: { 'aria-labelledby': 'table-title', 'data-testid': 'waiting-room' } }, [
    h('h1', { attrs: { id: 'table-title' } }, t('table.visitor.title', { name: table.host.name })),
    h('p.table-host', [h('strong', table.host.name), ' ', h('span.rating', ratingLabel(table.host))]),
    settings(ctrl),
    h('p.table-code.small-code', { attrs: { 'data-testid': 'table-code' } }, table.code),
    account
      ? h('div', [
          h('button.primary.big', { attrs: { type: 'button', 'data-testid': 'sit-down' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.sit() } }, t('table.sit')),
          h('p.muted.small', t('table.sit.help')),
        ])
      : loginFirst(`/t/${table.code}`, 'table.loginFirst', 'table-login'),
    h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'table-error' } }, ctrl.error ?? ''),
  ]);
}

/** The whole table page. */
export function tableView(ctrl: TableCtrl): VNode {
  if (ctrl.game) return h('div.table-game', { key: `game-${ctrl.game.id}` }, [gameView(ctrl.game)]);
  if (ctrl.loadError === 'missing') return notice('table-missing', t('table.missing'), t('table.missing.help'));
  const table = ctrl.table;
  if (!table) {
    if (ctrl.loadError === 'network') return notice('table-error', t('error.network'), null);
    return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
  }
  if (table.status !== 'open') return notice('table-closed', t('table.closed'), t('table.closed.help'));
  return h('div.table-page', { key: 'waiting' }, [ctrl.isHost() ? hostRoom(ctrl) : visitorRoom(ctrl)]);
}
