//! The roles page: the staff list, and the admins' forms (roles, the
//! site's settings, invitations).
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

const SIGNUPS = ['open', 'invite', 'closed'] as const;

/** The site's settings and its invitations (admins). */
function siteForm(ctrl: ModRolesCtrl): VNode {
  const s = ctrl.site;
  return h('section.mod-site', { attrs: { 'aria-labelledby': 'mod-site-title', 'data-testid': 'mod-site' } }, [
    h('h2', { attrs: { id: 'mod-site-title' } }, t('mod.site.title')),
    s === null
      ? ctrl.siteError
        ? formError(ctrl.siteError, 'mod-site-error')
        : modLoading()
      : h(
          'form.auth-form',
          {
            attrs: { novalidate: true, 'data-testid': 'mod-site-form' },
            on: {
              submit: (e: Event) => {
                e.preventDefault();
                ctrl.saveSite();
              },
            },
          },
          [
            field({ id: 'mod-site-name', label: t('mod.site.name'), type: 'text', value: s.name, set: (v) => (s.name = v), autocomplete: 'off', testid: 'mod-site-name' }),
            field({ id: 'mod-site-contact', label: t('mod.site.contact'), type: 'text', value: s.contact, set: (v) => (s.contact = v), autocomplete: 'off', testid: 'mod-site-contact' }),
            h('div.field.wide', [
              h('label', { attrs: { for: 'mod-site-signups' } }, t('mod.site.signups')),
              h(
                'select',
                {
                  attrs: { id: 'mod-site-signups', 'data-testid': 'mod-site-signups' },
                  on: { change: (e: Event) => (s.signups = (e.target as HTMLSelectElement).value as typeof s.signups) },
                },
                SIGNUPS.map((m) => h('option', { attrs: { value: m }, props: { selected: m === s.signups } }, t(`mod.site.signups.${m}`))),
              ),
            ]),
            formError(ctrl.siteError, 'mod-site-error'),
            ctrl.siteSaved ? h('p.notice', { attrs: { role: 'status', 'data-testid': 'mod-site-saved' } }, t('mod.site.saved')) : null,
            h('button.primary', { attrs: { type: 'submit', 'data-testid': 'mod-site-save' }, props: { disabled: ctrl.busy } }, t('mod.site.save')),
          ],
        ),
    h('h3', t('mod.site.invites')),
    h('button', { attrs: { type: 'button', 'data-testid': 'mod-invite-new' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.invite() } }, t('mod.site.invite.new')),
    ctrl.inviteLink ? h('p', h('code', { attrs: { 'data-testid': 'mod-invite-link' } }, ctrl.inviteLink)) : null,
    h(
      'ul.mod-invites',
      ctrl.invites.map((i) =>
        h('li', { attrs: { 'data-testid': 'mod-invite-row', 'data-used': String(i.used_by !== null) } }, [
          h('code', i.code),
          h('span.muted.small', ` · ${i.used_by ? t('mod.site.invite.used', { name: i.used_by }) : t('mod.site.invite.unused')}`),
        ]),
      ),
    ),
  ]);
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
    ctrl.you === 'admin' ? siteForm(ctrl) : null,
  ]);
}
