//! The moderation log: who did what to whom, when and why.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { lang, t } from '../i18n.js';
import type { LogEntry } from './api.js';
import type { ModLogCtrl } from './log-ctrl.js';
import { when } from './model.js';
import { modFailure, modLoading, modNav } from './nav-view.js';

function entry(e: LogEntry): VNode {
  return h('tr', { attrs: { 'data-testid': 'mod-log-entry', 'data-action': e.action } }, [
    h('td', when(e.at, lang())),
    h('td', { attrs: { 'data-testid': 'mod-log-moderator' } }, e.moderator ?? t('mod.log.cli')),
    h('td', { attrs: { 'data-testid': 'mod-log-action' } }, e.action),
    h('td', { attrs: { 'data-testid': 'mod-log-target' } }, e.target ? [h('a', { attrs: { href: `/mod/user/${encodeURIComponent(e.target)}` } }, e.target), ' ', h('a.muted.small', { attrs: { href: profilePath(e.target) } }, t('mod.profile'))] : '—'),
    h('td.mod-why', { attrs: { 'data-testid': 'mod-log-details' } }, e.details),
  ]);
}

/** The page. */
export function modLogView(ctrl: ModLogCtrl): VNode {
  if (ctrl.error) return modFailure(ctrl.error);
  if (!ctrl.entries) return modLoading();
  return h('section.card.mod-page', { attrs: { 'data-testid': 'mod-log-page' } }, [
    modNav('log'),
    h('h1', t('mod.log.title')),
    ctrl.entries.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'mod-log-empty' } }, t('mod.log.empty'))
      : h('table.mod-table', [
          h('thead', h('tr', [t('mod.log.when'), t('mod.log.who'), t('mod.log.what'), t('mod.log.whom'), t('mod.log.why')].map((c) => h('th', { attrs: { scope: 'col' } }, c)))),
          h('tbody', ctrl.entries.map(entry)),
        ]),
    ctrl.more ? h('button', { attrs: { type: 'button', 'data-testid': 'mod-log-more' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.load() } }, t('mod.log.more')) : null,
  ]);
}
