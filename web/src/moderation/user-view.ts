//! A player's moderation page: what they are (roles, marks), what was
//! reported and done, the evidence, and the actions with their undo.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { type Key, lang, t } from '../i18n.js';
import { MOD_ACTIONS, type ModAction } from './api.js';
import { evidenceView, reportItem } from './evidence-view.js';
import { when } from './model.js';
import { modFailure, modLoading, modNav } from './nav-view.js';
import type { ModUserCtrl } from './user-ctrl.js';

function actionButtons(ctrl: ModUserCtrl): VNode {
  const button = (a: ModAction, lift: boolean) =>
    h(
      lift ? 'button' : 'button.primary',
      { attrs: { type: 'button', 'data-testid': `mod-${lift ? 'lift' : 'take'}-${a}` }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.act(a, lift) } },
      t((lift ? `mod.lift.${a}` : `mod.take.${a}`) as Key),
    );
  return h('div.mod-actions', [
    h('label', { attrs: { for: 'mod-user-reason' } }, t('mod.reason')),
    h('textarea', { attrs: { id: 'mod-user-reason', rows: 2, maxlength: 1000, 'data-testid': 'mod-user-reason' }, props: { value: ctrl.reason }, on: { input: (e: Event) => (ctrl.reason = (e.target as HTMLTextAreaElement).value) } }),
    h('p.muted.small', t('mod.warn.help')),
    h(
      'div.mod-buttons',
      MOD_ACTIONS.map((a) => {
        const marked = a === 'warn' ? false : ctrl.marked(a);
        return marked ? button(a, true) : h('span', [button(a, false), a === 'warn' ? button(a, true) : null]);
      }),
    ),
    h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'mod-user-error' } }, ctrl.actionError ?? ''),
  ]);
}

/** The page. */
export function modUserView(ctrl: ModUserCtrl): VNode {
  if (ctrl.error === 'missing') return h('section.card.not-found', { attrs: { 'data-testid': 'mod-user-missing' } }, [h('h1', t('profile.notFound'))]);
  if (ctrl.error) return modFailure(ctrl.error);
  const r = ctrl.record;
  if (!r) return modLoading();
  return h('section.card.mod-page', { attrs: { 'data-testid': 'mod-user-page', 'data-username': r.username } }, [
    modNav('user'),
    h('h1', [t('mod.user.title', { name: r.username }), ' ', h('a.muted.small', { attrs: { href: profilePath(r.username) } }, t('mod.profile'))]),
    r.roles.length ? h('p', { attrs: { 'data-testid': 'mod-user-roles' } }, r.roles.map((x) => t(`mod.role.${x}` as Key)).join(', ')) : null,
    h('h2', t('mod.user.marks')),
    r.marks.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'mod-user-unmarked' } }, t('mod.user.noMarks'))
      : h(
          'ul',
          r.marks.map((m) => h('li', { attrs: { 'data-testid': 'mod-user-mark', 'data-mark': m.mark } }, [h('strong', t(`mod.mark.${m.mark}` as Key)), ` · ${m.moderator ?? t('mod.log.cli')} · ${when(m.at, lang())}`, m.reason ? ` · ${m.reason}` : ''])),
        ),
    actionButtons(ctrl),
    h('h2', t('mod.user.reports')),
    r.reports.length === 0 ? h('p.muted', t('mod.evidence.none')) : h('ul.mod-reports', r.reports.map(reportItem)),
    h('h2', t('mod.user.notes')),
    r.notes.length === 0
      ? h('p.muted', t('mod.evidence.none'))
      : h(
          'ul.mod-notes',
          r.notes.map((n) => h('li', { attrs: { 'data-testid': 'mod-user-note', 'data-action': n.action } }, `${when(n.at, lang())} · ${n.moderator ?? t('mod.log.cli')} · ${n.action}${n.details ? ` · ${n.details}` : ''}`)),
        ),
    evidenceView(r.evidence),
  ]);
}
