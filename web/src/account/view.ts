//! The account page: who is logged in, the password change form and the
//! account deletion form (confirmed with the password).
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { field, formError } from '../forms.js';
import { t } from '../i18n.js';
import type { AccountCtrl } from './ctrl.js';

function submitting(f: () => void) {
  return {
    submit: (e: Event) => {
      e.preventDefault();
      f();
    },
  };
}

/** The page (a log-in prompt when nobody is logged in). */
export function accountView(ctrl: AccountCtrl): VNode {
  const account = ctrl.ctx.account();
  if (!account) {
    return h('section.card.auth-card', { attrs: { 'data-testid': 'account-page' } }, [
      h('h1', t('account.title')),
      h('p', [h('a', { attrs: { href: '/login', 'data-testid': 'account-login' } }, t('account.needLogin'))]),
    ]);
  }
  return h('div.account-page', { attrs: { 'data-testid': 'account-page' } }, [
    h('section.card.auth-card', { attrs: { 'aria-labelledby': 'account-title' } }, [
      h('h1', { attrs: { id: 'account-title' } }, t('account.title')),
      h('p', [h('a', { attrs: { href: profilePath(account.username), 'data-testid': 'account-profile' } }, t('account.signedIn', { name: account.username }))]),
      h('p', [h('a', { attrs: { href: '/account/oauth/token', 'data-testid': 'account-tokens' } }, t('account.tokens'))]),
      h('h2', t('account.password.title')),
      h('form.auth-form', { attrs: { novalidate: true, 'data-testid': 'password-form' }, on: submitting(() => ctrl.changePassword()) }, [
        field({ id: 'account-current', label: t('account.password.current'), type: 'password', value: ctrl.current, set: (v) => (ctrl.current = v), autocomplete: 'current-password', testid: 'current' }),
        field({ id: 'account-new', label: t('account.password.new'), type: 'password', value: ctrl.next, set: (v) => (ctrl.next = v), autocomplete: 'new-password', testid: 'new', help: t('auth.password.help') }),
        formError(ctrl.passwordError),
        ctrl.passwordChanged ? h('p.form-success', { attrs: { role: 'status', 'data-testid': 'password-changed' } }, t('account.password.changed')) : null,
        h('button.primary', { attrs: { type: 'submit', 'data-testid': 'submit' }, props: { disabled: ctrl.busy } }, t('account.password.submit')),
      ]),
    ]),
    h('section.card.auth-card.danger-zone', { attrs: { 'aria-labelledby': 'delete-title' } }, [
      h('h2', { attrs: { id: 'delete-title' } }, t('account.delete.title')),
      h('p.muted', t('account.delete.help')),
      h('form.auth-form', { attrs: { novalidate: true, 'data-testid': 'delete-form' }, on: submitting(() => ctrl.deleteAccount()) }, [
        field({ id: 'account-delete', label: t('account.delete.password'), type: 'password', value: ctrl.deletePassword, set: (v) => (ctrl.deletePassword = v), autocomplete: 'current-password', testid: 'delete-password' }),
        formError(ctrl.deleteError, 'delete-error'),
        h('button.danger', { attrs: { type: 'submit', 'data-testid': 'delete-submit' }, props: { disabled: ctrl.busy } }, t('account.delete.submit')),
      ]),
    ]),
  ]);
}
