//! The sign-up and log-in forms.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { field, formError } from '../forms.js';
import { authPath } from '../route.js';
import type { AuthCtrl } from './ctrl.js';

/** The page: title, username, password, submit, error, and a link to the other form. */
export function authView(ctrl: AuthCtrl): VNode {
  const signup = ctrl.mode === 'signup';
  const closed = signup && ctrl.site?.signups === 'closed';
  const contact = ctrl.site?.contact ? h('p.muted.small', { attrs: { 'data-testid': 'site-contact' } }, t('auth.contact', { contact: ctrl.site.contact })) : null;
  return h('div.auth-page', [
    h('section.card.auth-card', { attrs: { 'aria-labelledby': 'auth-title', 'data-testid': `${ctrl.mode}-page` } }, [
      h('h1', { attrs: { id: 'auth-title' } }, t(signup ? 'auth.signup.title' : 'auth.login.title')),
      signup ? h('p.intro', t('auth.signup.intro')) : null,
      closed ? h('p.notice', { attrs: { role: 'status', 'data-testid': 'signups-closed' } }, t('auth.signup.closed')) : null,
      closed ? null : h(
        'form.auth-form',
        {
          attrs: { novalidate: true, 'data-testid': `${ctrl.mode}-form` },
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              ctrl.submit();
            },
          },
        },
        [
          field({
            id: 'auth-username',
            label: t('auth.username'),
            type: 'text',
            value: ctrl.username,
            set: (v) => (ctrl.username = v),
            autocomplete: 'username',
            testid: 'username',
            ...(signup ? { help: t('auth.username.help') } : {}),
          }),
          field({
            id: 'auth-password',
            label: t('auth.password'),
            type: 'password',
            value: ctrl.password,
            set: (v) => (ctrl.password = v),
            autocomplete: signup ? 'new-password' : 'current-password',
            testid: 'password',
            ...(signup ? { help: t('auth.password.help') } : {}),
          }),
          signup && ctrl.site?.signups === 'invite'
            ? field({ id: 'auth-invite', label: t('auth.invite'), type: 'text', value: ctrl.invite, set: (v) => (ctrl.invite = v), autocomplete: 'off', testid: 'invite', help: t('auth.invite.help') })
            : null,
          formError(ctrl.error),
          h('button.primary.big', { attrs: { type: 'submit', 'data-testid': 'submit' }, props: { disabled: ctrl.busy } }, ctrl.busy ? t('auth.busy') : t(signup ? 'auth.signup.submit' : 'auth.login.submit')),
        ],
      ),
      contact,
      h('p.auth-switch', [
        h('a', { attrs: { href: ctrl.next === '/' ? (signup ? '/login' : '/signup') : authPath(signup ? 'login' : 'signup', ctrl.next), 'data-testid': signup ? 'to-login' : 'to-signup' } }, t(signup ? 'auth.toLogin' : 'auth.toSignup')),
      ]),
    ]),
  ]);
}
