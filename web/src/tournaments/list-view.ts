//! The tournaments list: the way to create an Arena, then the Arenas about
//! to start, being played and finished, each row with its name, clock,
//! length, players and start; also the rows a club's page shows.
import { h, type VNode } from 'snabbdom';
import { lang, t } from '../i18n.js';
import { authPath } from '../route.js';
import type { ArenaSummary } from './api.js';
import type { ArenasCtrl } from './list-ctrl.js';
import { arenaPath, clockText, statusKey } from './model.js';

function when(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** One Arena's row. */
export function arenaRow(a: ArenaSummary): VNode {
  return h('li.arena-row', { attrs: { 'data-testid': 'arena-row', 'data-id': a.id, 'data-status': String(a.status) } }, [
    h('a.arena-row-name', { attrs: { href: arenaPath(a.id), 'data-testid': 'arena-row-link' } }, a.fullName),
    h('span.muted.small', [
      clockText(a.clock),
      ' · ',
      t('arena.minutes', { n: a.minutes }),
      ' · ',
      t(a.rated ? 'multiplayer.rated' : 'multiplayer.casual'),
      ' · ',
      t('arena.players', { n: a.nbPlayers }),
      ' · ',
      t(statusKey(a)),
      ' · ',
      when(a.status >= 30 ? a.finishesAt : a.startsAt),
      a.private ? ` · ${t('arena.private')}` : '',
    ]),
  ]);
}

function section(title: string, testid: string, arenas: ArenaSummary[]): VNode {
  return h('section.card.arena-section', { attrs: { 'data-testid': testid } }, [
    h('h2', title),
    arenas.length === 0 ? h('p.muted', t('arena.list.none')) : h('ul.arena-list', arenas.map(arenaRow)),
  ]);
}

/** The whole tournaments list page. */
export function arenasView(ctrl: ArenasCtrl): VNode {
  const l = ctrl.lists;
  return h('div.arenas-page', { attrs: { 'data-testid': 'arenas-page' } }, [
    h('section.card', [
      h('div.clubs-title', [
        h('h1', t('arena.list.title')),
        ctrl.ctx.account()
          ? h('a.button.primary', { attrs: { href: '/tournament/new', 'data-testid': 'arena-create' } }, t('arena.create'))
          : h('a', { attrs: { href: authPath('login', '/tournament'), 'data-testid': 'arena-login' } }, t('arena.needLogin')),
      ]),
      h('p.muted', t('arena.list.intro')),
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'arena-list-error' } }, ctrl.error) : null,
    ]),
    l ? section(t('arena.list.started'), 'arena-list-started', l.started) : h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…'),
    l ? section(t('arena.list.created'), 'arena-list-created', l.created) : null,
    l ? section(t('arena.list.finished'), 'arena-list-finished', l.finished) : null,
  ]);
}
