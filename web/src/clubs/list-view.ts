//! The clubs list: the search box, the viewer's clubs, one page of clubs
//! (the largest first, or those the search found) with their size and
//! whether they are open, the pager, and the way to create a club.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { authPath, clubPath } from '../route.js';
import type { Club } from './api.js';
import { clubFacts } from './form-view.js';
import type { ClubsCtrl } from './list-ctrl.js';

function clubItem(club: Club): VNode {
  return h('li.club-item', { attrs: { 'data-testid': 'clubs-item', 'data-id': club.id } }, [
    h('a.club-item-name', { attrs: { href: clubPath(club.id), 'data-testid': 'clubs-item-link' } }, club.name),
    h('span.club-facts.muted.small', clubFacts(club)),
    club.description ? h('p.club-item-description.muted', club.description) : null,
  ]);
}

function searchForm(ctrl: ClubsCtrl): VNode {
  return h(
    'form.clubs-search',
    {
      attrs: { role: 'search' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.search();
        },
      },
    },
    [
      h('label.visually-hidden', { attrs: { for: 'clubs-search' } }, t('clubs.search')),
      h('input', {
        attrs: { id: 'clubs-search', type: 'search', maxlength: 100, autocomplete: 'off', placeholder: t('clubs.search.placeholder'), 'data-testid': 'clubs-search' },
        props: { value: ctrl.input },
        on: { input: (e: Event) => (ctrl.input = (e.target as HTMLInputElement).value) },
      }),
      h('button', { attrs: { type: 'submit', 'data-testid': 'clubs-search-submit' } }, t('clubs.search.submit')),
    ],
  );
}

function mine(ctrl: ClubsCtrl): VNode | null {
  if (!ctrl.ctx.account() || ctrl.mine === null) return null;
  return h('section.card.clubs-mine', { attrs: { 'aria-labelledby': 'clubs-mine-title', 'data-testid': 'clubs-mine' } }, [
    h('h2', { attrs: { id: 'clubs-mine-title' } }, t('clubs.mine')),
    ctrl.mine.length === 0 ? h('p.muted', t('clubs.mine.none')) : h('ul.clubs-list', ctrl.mine.map(clubItem)),
  ]);
}

function results(ctrl: ClubsCtrl): VNode {
  const heading = h('h2', { attrs: { id: 'clubs-list-title' } }, ctrl.text ? t('clubs.search.results', { text: ctrl.text }) : t('clubs.largest'));
  const page = ctrl.page;
  let body: Array<VNode | null>;
  if (ctrl.error) body = [h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'clubs-error' } }, ctrl.error)];
  else if (!page) body = [h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…')];
  else if (page.currentPageResults.length === 0) body = [h('p.muted', { attrs: { 'data-testid': 'clubs-empty' } }, t(ctrl.text ? 'clubs.noResults' : 'clubs.none'))];
  else {
    body = [
      h('ul.clubs-list', { attrs: { 'data-testid': 'clubs-list' } }, page.currentPageResults.map(clubItem)),
      page.nbPages > 1
        ? h('nav.pager', { attrs: { 'aria-label': t('clubs.pages') } }, [
            page.previousPage ? h('a.button', { attrs: { href: ctrl.pagePath(page.previousPage), 'data-testid': 'clubs-prev' } }, t('clubs.prev')) : h('span'),
            h('span.muted.small', t('clubs.page', { n: page.currentPage, total: page.nbPages })),
            page.nextPage ? h('a.button', { attrs: { href: ctrl.pagePath(page.nextPage), 'data-testid': 'clubs-next' } }, t('clubs.next')) : h('span'),
          ])
        : null,
    ];
  }
  return h('section.card.clubs-results', { attrs: { 'aria-labelledby': 'clubs-list-title' } }, [
    heading,
    ctrl.text ? h('p', [h('a', { attrs: { href: '/team', 'data-testid': 'clubs-all' } }, t('clubs.search.clear'))]) : null,
    ...body,
  ]);
}

/** The whole clubs list page. */
export function clubsView(ctrl: ClubsCtrl): VNode {
  const account = ctrl.ctx.account();
  return h('div.clubs-page', { attrs: { 'data-testid': 'clubs-page' } }, [
    h('section.card.clubs-head', [
      h('div.clubs-title', [
        h('h1', t('clubs.title')),
        account
          ? h('a.button.primary', { attrs: { href: '/team/new', 'data-testid': 'clubs-create' } }, t('clubs.create'))
          : h('a', { attrs: { href: authPath('login', location.pathname + location.search), 'data-testid': 'clubs-login' } }, t('clubs.needLogin')),
      ]),
      h('p.muted', t('clubs.intro')),
      searchForm(ctrl),
    ]),
    mine(ctrl),
    results(ctrl),
  ]);
}
