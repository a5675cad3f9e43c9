//! The site header: skip link, brand, the Learn, Multiplayer and Clubs links, account links (sign up / log in, or
//! the username, the bell with its notifications, the inbox with its unread count, settings and log out) and the
//! language switcher.
import { h, type VNode } from 'snabbdom';
import { type Account, profilePath } from './api.js';
import { isLang, type Key, type Lang, LANG_NAMES, LANGS, lang, t } from './i18n.js';
import { type BellCtrl, type Note, notePath } from './notify/bell.js';

/** What the header shows and what it can do. */
export interface HeaderState {
  account: Account | null;
  /** The language shown in the switcher (the one being loaded, during a switch). */
  lang: Lang;
  /** Conversations with a message the account has not read. */
  unread: number;
  /** The notifications. */
  bell: BellCtrl;
  switchLang(lang: Lang): void;
  logout(): void;
}

function noteText(n: Note): string {
  switch (n.kind) {
    case 'msg':
      return t('notify.msg', { name: n.from, text: n.text });
    case 'challenge':
      return t('notify.challenge', { name: n.from });
    case 'report':
      return t('notify.report', { name: n.about ?? '—' });
    case 'tournament_soon':
      return t('notify.tournamentSoon', { name: n.name, time: new Intl.DateTimeFormat(lang(), { timeStyle: 'short' }).format(new Date(n.starts_at)) });
    case 'swiss_round':
      return n.opponent ? t('notify.swissRound', { name: n.name, round: n.round, opponent: n.opponent }) : t('notify.swissBye', { name: n.name, round: n.round });
    case 'tournament_win':
      return t('notify.tournamentWin', { winner: n.winner, name: n.name });
    case 'refund': {
      const speed = ['bullet', 'blitz', 'rapid', 'classical'].includes(n.speed) ? t(`speed.${n.speed}` as Key) : n.speed;
      return t('notify.refund', { points: n.points, speed });
    }
  }
}

function bellView(bell: BellCtrl, me: string): VNode {
  const list = bell.notes;
  return h('div.bell', [
    h(
      'button.link-button.nav-bell',
      { attrs: { type: 'button', 'data-testid': 'nav-bell', 'aria-expanded': String(bell.open), title: t('notify.title') }, on: { click: () => bell.toggle() } },
      [h('span', { attrs: { 'aria-hidden': 'true' } }, '🔔'), h('span.visually-hidden', t('notify.title')), bell.unseen > 0 ? h('span.nav-count', { attrs: { 'data-testid': 'nav-bell-count' } }, String(bell.unseen)) : null],
    ),
    bell.open
      ? h('div.bell-list', { attrs: { 'data-testid': 'bell-list' } }, [
          list === null
            ? h('p.muted', '…')
            : list.length === 0
              ? h('p.muted', { attrs: { 'data-testid': 'bell-none' } }, t('notify.none'))
              : h(
                  'ul',
                  list.map((n) =>
                    h(`li.bell-item${n.seen ? '' : '.unseen'}`, { attrs: { 'data-testid': 'bell-item', 'data-kind': n.kind } }, [
                      h('a', { attrs: { href: notePath(n, me) }, on: { click: () => bell.close() } }, noteText(n)),
                      h('span.muted.small', new Date(n.created_at).toLocaleString()),
                    ]),
                  ),
                ),
        ])
      : null,
  ]);
}

/** The preferences link: a gear, with its word where there is room. */
function prefsLink(): VNode {
  return h('a.nav-prefs', { attrs: { href: '/account/preferences', 'data-testid': 'nav-prefs', title: t('prefs.nav') } }, [
    h('span.nav-icon', { attrs: { 'aria-hidden': 'true' } }, '⚙'),
    h('span.nav-label.visually-hidden', t('prefs.nav')),
  ]);
}

function accountNav(s: HeaderState): VNode {
  const a = s.account;
  return h(
    'nav.account-nav',
    a
      ? [
          h('a.nav-user', { attrs: { href: profilePath(a.username), 'data-testid': 'nav-user', title: t('nav.profile', { name: a.username }) } }, a.username),
          bellView(s.bell, a.username),
          h('a.nav-inbox', { attrs: { href: '/inbox', 'data-testid': 'nav-inbox', title: s.unread > 0 ? t('nav.inbox.unread', { n: s.unread }) : t('nav.inbox') } }, [
            // On a phone the envelope stands for the word (the link keeps its title).
            h('span.nav-icon', { attrs: { 'aria-hidden': 'true' } }, '✉'),
            h('span.nav-label', t('nav.inbox')),
            s.unread > 0 ? h('span.nav-count', { attrs: { 'data-testid': 'nav-inbox-unread' } }, String(s.unread)) : null,
          ]),
          a.role ? h('a', { attrs: { href: '/mod', 'data-testid': 'nav-mod' } }, t('mod.nav')) : null,
          h('a', { attrs: { href: '/account', 'data-testid': 'nav-account' } }, t('nav.account')),
          prefsLink(),
          h('button.link-button', { attrs: { type: 'button', 'data-testid': 'nav-logout' }, on: { click: () => s.logout() } }, t('nav.logout')),
        ]
      : [
          prefsLink(),
          h('a', { attrs: { href: '/login', 'data-testid': 'nav-login' } }, t('nav.login')),
          h('a.button.primary.small', { attrs: { href: '/signup', 'data-testid': 'nav-signup' } }, t('nav.signup')),
        ],
  );
}

/** The header. */
export function headerView(s: HeaderState): VNode {
  return h('header.site-header', [
    h('a.skip-link', { attrs: { href: '#main' } }, t('nav.skip')),
    h('div.header-inner', [
      h('a.brand', { attrs: { href: '/', 'data-testid': 'home-link', 'aria-label': `${t('site.name')} · ${t('nav.home')}` } }, [
        h('img', { attrs: { src: '/assets/favicon.svg', alt: '', width: 28, height: 28 } }),
        h('span.brand-name', t('site.name')),
        h('span.brand-tagline', t('site.tagline')),
      ]),
      h('nav.site-nav', { attrs: { 'aria-label': t('nav.main') } }, [
        h('a.nav-learn', { attrs: { href: '/learn', 'data-testid': 'learn-link' } }, t('learn.nav')),
        h('a.nav-puzzles', { attrs: { href: '/training', 'data-testid': 'puzzles-link' } }, t('puzzle.nav')),
        h('a.nav-multiplayer', { attrs: { href: '/multiplayer', 'data-testid': 'multiplayer-link' } }, t('nav.multiplayer')),
        h('a.nav-clubs', { attrs: { href: '/team', 'data-testid': 'clubs-link' } }, t('clubs.nav')),
        h('a.nav-tournaments', { attrs: { href: '/tournament', 'data-testid': 'tournaments-link' } }, t('arena.nav')),
        h('a.nav-tv', { attrs: { href: '/tv', 'data-testid': 'tv-link' } }, t('tv.title')),
      ]),
      accountNav(s),
      h('div.lang', [
        h('label.visually-hidden', { attrs: { for: 'lang-select' } }, t('nav.language')),
        h(
          'select',
          {
            attrs: { id: 'lang-select', 'data-testid': 'lang-select' },
            props: { value: s.lang },
            on: {
              change: (e: Event) => {
                const v = (e.target as HTMLSelectElement).value;
                if (isLang(v)) s.switchLang(v);
              },
            },
          },
          LANGS.map((l) => h('option', { attrs: { value: l, lang: l }, props: { selected: l === s.lang } }, LANG_NAMES[l])),
        ),
      ]),
    ]),
  ]);
}
