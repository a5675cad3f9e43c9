//! The roles page: the staff list, and the admins' form.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { field, formError } from '../forms.js';
import { type Key, t } from '../i18n.js';
import { modFailure, modLoading, modNav } from './nav-view.js';
import type { ModRolesCtrl } from './roles-ctrl.js';

const CHOICES = ['moderator', 'admin', 'none'] as const;

function grantForm(ctrl: ModRolesCtrl): VNode {
  return h(
    'form.auth-form',
    {
      attrs: { novalidate: true, 'data-testid': 'mod-role-form' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submit();
        },
      },
    },
    [
      field({ id: 'mod-role-username', label: t('mod.roles.username'), type: 'text', value: ctrl.username, set: (v) => (ctrl.username = v), autocomplete: 'off', testid: 'mod-role-username' }),
      h('div.field.wide', [
        h('label', { attrs: { for: 'mod-role-select' } }, t('mod.roles.role')),
        h(
          'select',
          {
            attrs: { id: 'mod-role-select', 'data-testid': 'mod-role-select' },
            on: { change: (e: Event) => (ctrl.role = (e.target as HTMLSelectElement).value as typeof ctrl.role) },
          },
          CHOICES.map((c) => h('option', { attrs: { value: c }, props: { selected: c === ctrl.role } }, t(`mod.role.${c}` as Key))),
        ),
      ]),
      formError(ctrl.formError, 'mod-role-error'),
      ctrl.done ? h('p.notice', { attrs: { role: 'status', 'data-testid': 'mod-role-done' } }, t('mod.roles.done', { name: ctrl.done })) : null,
      h('button.primary', { attrs: { type: 'submit', 'data-testid': 'mod-role-submit' }, props: { disabled: ctrl.busy } }, t('mod.roles.submit')),
    ],
  );
}

/** The page. */
export function modRolesView(ctrl: ModRolesCtrl): VNode {
  if (ctrl.error) return modFailure(ctrl.error);
  if (!ctrl.staff) return modLoading();
  return h('section.card.mod-page', { attrs: { 'data-testid': 'mod-roles-page' } }, [
    modNav('roles'),
    h('h1', t('mod.roles.title')),
    h(
      'ul.mod-staff',
      ctrl.staff.map((s) =>
        h('li', { attrs: { 'data-testid': 'mod-staff-row', 'data-username': s.username, 'data-role': s.role } }, [h('a', { attrs: { href: profilePath(s.username) } }, s.username), ' · ', t(`mod.role.${s.role}` as Key)]),
      ),
    ),
    ctrl.you === 'admin' ? grantForm(ctrl) : h('p.muted', { attrs: { 'data-testid': 'mod-roles-admins-only' } }, t('mod.roles.adminsOnly')),
  ]);
}
