//! The API tokens page: the creation form (description, scopes), the new
//! token shown once, and the list of tokens with their scopes and uses.
import { h, type VNode } from 'snabbdom';
import type { ApiToken, Scope } from '../api.js';
import { SCOPES } from '../api.js';
import { field, formError } from '../forms.js';
import { t } from '../i18n.js';
import { authPath } from '../route.js';
import type { TokensCtrl } from './ctrl.js';

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : t('tokens.never');
}

function scopeBox(ctrl: TokensCtrl, scope: Scope): VNode {
  const id = `scope-${scope.replace(':', '-')}`;
  return h('label.scope', { attrs: { for: id } }, [
    h('input', {
      attrs: { id, type: 'checkbox', 'data-testid': id },
      props: { checked: ctrl.scopes.has(scope) },
      on: { change: (e: Event) => ctrl.toggle(scope, (e.target as HTMLInputElement).checked) },
    }),
    h('span', [h('code', scope), ' — ', t(`tokens.scope.${scope}`)]),
  ]);
}

function tokenRow(ctrl: TokensCtrl, tok: ApiToken): VNode {
  return h('li.token', { attrs: { 'data-testid': 'token' } }, [
    h('strong', tok.description),
    h('p.muted.small', tok.scopes.join(', ')),
    h('p.muted.small', `${t('tokens.createdAt', { when: when(tok.created_at) })} · ${t('tokens.lastUsed', { when: when(tok.last_used_at) })}`),
    h(
      'button.danger',
      { attrs: { type: 'button', 'data-testid': 'token-revoke' }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.revoke(tok.id) } },
      t('tokens.revoke'),
    ),
  ]);
}

/** The page (a log-in prompt when nobody is logged in). */
export function tokensView(ctrl: TokensCtrl): VNode {
  if (!ctrl.ctx.account()) {
    return h('section.card.auth-card', { attrs: { 'data-testid': 'tokens-page' } }, [
      h('h1', t('tokens.title')),
      h('p', [h('a', { attrs: { href: authPath('login', location.pathname + location.search) } }, t('tokens.needLogin'))]),
    ]);
  }
  return h('div.account-page', { attrs: { 'data-testid': 'tokens-page' } }, [
    h('section.card.auth-card', [
      h('h1', t('tokens.title')),
      h('p.muted', t('tokens.intro')),
      h(
        'form.auth-form',
        {
          attrs: { novalidate: true, 'data-testid': 'token-form' },
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              ctrl.create();
            },
          },
        },
        [
          field({ id: 'token-description', label: t('tokens.description'), type: 'text', value: ctrl.description, set: (v) => (ctrl.description = v), autocomplete: 'off', testid: 'token-description' }),
          h('fieldset.scopes', [h('legend', t('tokens.scopes')), ...SCOPES.map((s) => scopeBox(ctrl, s))]),
          formError(ctrl.error),
          h('button.primary', { attrs: { type: 'submit', 'data-testid': 'token-create' }, props: { disabled: ctrl.busy } }, t('tokens.create')),
        ],
      ),
      ctrl.created
        ? h('div.token-created', { attrs: { role: 'status' } }, [
            h('p', t('tokens.created')),
            h('code.token-secret', { attrs: { 'data-testid': 'token-secret' } }, ctrl.created.token),
          ])
        : null,
    ]),
    h('section.card.auth-card', [
      h('h2', t('tokens.list')),
      ctrl.tokens === null
        ? null
        : ctrl.tokens.length === 0
          ? h('p.muted', { attrs: { 'data-testid': 'tokens-none' } }, t('tokens.none'))
          : h('ul.tokens', ctrl.tokens.map((tok) => tokenRow(ctrl, tok))),
    ]),
  ]);
}
