//! The authorization page: which app asks, for what, where the player will
//! be sent back, and the Approve / Deny buttons.
import { h, type VNode } from 'snabbdom';
import { formError } from '../forms.js';
import { t } from '../i18n.js';
import { authPath } from '../route.js';
import type { OAuthCtrl } from './ctrl.js';

/** The page. */
export function oauthView(ctrl: OAuthCtrl): VNode {
  const r = ctrl.request;
  const body: (VNode | null)[] = [h('h1', t('oauth.title'))];
  if (!r) {
    body.push(formError(ctrl.error));
  } else if (!ctrl.ctx.account()) {
    body.push(h('p', [h('a', { attrs: { href: authPath('login', '/oauth' + ctrl.search), 'data-testid': 'oauth-login' } }, t('oauth.needLogin'))]));
  } else {
    body.push(
      h('p', { attrs: { 'data-testid': 'oauth-client' } }, t('oauth.asks', { app: r.client_id, name: ctrl.ctx.account()!.username })),
      r.scopes.length === 0
        ? h('p.muted', t('oauth.noScopes'))
        : h('ul.scopes', { attrs: { 'data-testid': 'oauth-scopes' } }, r.scopes.map((s) => h('li', [h('code', s), ' — ', t(`tokens.scope.${s}`)]))),
      h('p.muted', t('oauth.redirect', { origin: r.redirect_origin })),
      r.insecure ? h('p.form-error', { attrs: { 'data-testid': 'oauth-insecure' } }, t('oauth.insecure')) : null,
      formError(ctrl.error),
      h('div.actions', [
        h('button.primary', { attrs: { type: 'button', 'data-testid': 'oauth-approve' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.answer(true) } }, t('oauth.approve')),
        h('button', { attrs: { type: 'button', 'data-testid': 'oauth-deny' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.answer(false) } }, t('oauth.deny')),
      ]),
    );
  }
  return h('section.card.auth-card', { attrs: { 'data-testid': 'oauth-page' } }, body);
}
