//! The moderation pages' frame: their sub-navigation (queue, log, roles)
//! and what a visitor without a role, or without an answer, sees.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import type { LoadError } from './model.js';

/** The links between the moderation pages. */
export function modNav(current: 'queue' | 'log' | 'roles' | 'user'): VNode {
  const link = (page: 'queue' | 'log' | 'roles', href: string) =>
    h('a.button.small', { attrs: { href, 'data-testid': `mod-nav-${page}`, 'aria-current': page === current ? 'page' : false } }, t(`mod.nav.${page}`));
  return h('nav.mod-nav', { attrs: { 'aria-label': t('mod.nav') } }, [link('queue', '/mod'), link('log', '/mod/log'), link('roles', '/mod/roles')]);
}

/** A moderation page that could not load: moderators only, or no answer. */
export function modFailure(error: LoadError): VNode {
  return h('section.card.not-found', { attrs: { 'data-testid': error === 'forbidden' ? 'mod-forbidden' : 'mod-error' } }, [
    h('h1', error === 'forbidden' ? t('mod.forbidden') : t('error.network')),
  ]);
}

/** The loading placeholder. */
export function modLoading(): VNode {
  return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
}
