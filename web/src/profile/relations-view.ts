//! The relations part of a profile page: follow and block buttons and a
//! link to write to the player, for a logged-in visitor, then the player's follows and followers, each name
//! a link to its profile with a dot when the player is online.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { t } from '../i18n.js';
import type { RelatedUser } from '../relations.js';
import type { RelationsCtrl } from './relations-ctrl.js';

function userList(users: RelatedUser[], testid: string): VNode {
  if (users.length === 0) return h('p.muted.small', { attrs: { 'data-testid': `${testid}-none` } }, t('rel.none'));
  return h(
    'ul.rel-list',
    { attrs: { 'data-testid': testid } },
    users.map((u) =>
      h('li', { attrs: { 'data-testid': `${testid}-user`, 'data-name': u.name } }, [
        h('a', { attrs: { href: profilePath(u.name) } }, u.name),
        u.online ? h('span.online-dot', { attrs: { title: t('rel.online'), 'aria-label': t('rel.online'), 'data-testid': 'online-dot' } }) : null,
      ]),
    ),
  );
}

function buttons(ctrl: RelationsCtrl): VNode | null {
  const you = ctrl.rel?.you;
  if (!you) return null;
  const button = (change: Parameters<RelationsCtrl['change']>[0], testid: string, label: string, danger = false): VNode =>
    h(danger ? 'button.danger.small' : 'button.small', { attrs: { type: 'button', 'data-testid': testid }, props: { disabled: ctrl.busy }, on: { click: () => ctrl.change(change) } }, label);
  return h('div.rel-actions', [
    you.blocking ? null : h('a.button.small', { attrs: { href: `/inbox/${encodeURIComponent(ctrl.username)}`, 'data-testid': 'profile-message' } }, t('inbox.message')),
    you.blocking ? null : you.following ? button('unfollow', 'profile-unfollow', t('rel.unfollow')) : button('follow', 'profile-follow', t('rel.follow')),
    you.blocking ? button('unblock', 'profile-unblock', t('rel.unblock')) : button('block', 'profile-block', t('rel.block'), true),
    you.blocking ? h('p.muted.small', { attrs: { 'data-testid': 'profile-blocking' } }, t('rel.blocking')) : null,
    ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'rel-error' } }, ctrl.error) : null,
  ]);
}

/** The buttons and the two lists (nothing until loaded). */
export function relationsView(ctrl: RelationsCtrl): VNode | null {
  const rel = ctrl.rel;
  if (!rel) return null;
  return h('section.profile-relations', { attrs: { 'data-testid': 'profile-relations' } }, [
    buttons(ctrl),
    h('div.rel-columns', [
      h('div', [h('h2', { attrs: { 'data-testid': 'profile-nb-following' } }, t('rel.following', { n: rel.nb_following })), userList(rel.following, 'profile-following')]),
      h('div', [h('h2', { attrs: { 'data-testid': 'profile-nb-followers' } }, t('rel.followers', { n: rel.nb_followers })), userList(rel.followers, 'profile-followers')]),
    ]),
  ]);
}
