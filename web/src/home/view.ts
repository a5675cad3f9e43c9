//! The home page: the "Play the computer" panel, the followed players
//! online (for an account), and My recent games.
import { h, type VNode } from 'snabbdom';
import type { LiveGame } from '../tv/api.js';
import { type GameSummary, profilePath } from '../api.js';
import { type Key, lang, t, tp } from '../i18n.js';
import { newGameView } from '../newgame/view.js';
import { outcomeText } from '../result.js';
import { seatName } from '../seat.js';
import type { HomeCtrl } from './ctrl.js';

/** A date and time in the current language, or '' if `iso` is not a date. */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Who the game was played against: "Computer · Normal", or the other player's name. */
function opponentName(g: GameSummary): string {
  if (g.opponent.kind === 'computer' && g.level) return t('home.recent.opponent', { level: t(`level.${g.level}` as Key) });
  return seatName(g.opponent);
}

function recentItem(g: GameSummary): VNode {
  const outcome = outcomeText(g, g.you).headline;
  const moves = Math.ceil(g.plies / 2);
  return h('li', [
    h('a.recent-item', { attrs: { href: `/game/${encodeURIComponent(g.id)}`, 'data-testid': 'recent-game', 'data-id': g.id } }, [
      h(`span.piece-dot.${g.you ?? 'white'}`, { attrs: { 'aria-hidden': 'true' } }),
      h('span.recent-main', [
        h('strong', { attrs: { 'data-testid': 'recent-opponent' } }, opponentName(g)),
        h('span.muted', [t(`variant.${g.variant}` as Key), g.you ? t(`color.${g.you}` as Key) : null, tp('home.recent.moves', moves)].filter(Boolean).join(' · ')),
      ]),
      h('span.recent-outcome', { class: { live: g.status === 'ongoing' } }, [h('span', outcome), h('span.muted.small', dateTime(g.updated_at || g.created_at))]),
    ]),
  ]);
}

function recent(ctrl: HomeCtrl): VNode {
  let body: VNode;
  if (ctrl.failed) body = h('p.muted', t('error.network'));
  else if (ctrl.games === null) body = h('p.muted', { attrs: { 'aria-busy': 'true' } }, '…');
  else if (ctrl.games.length === 0) {
    const key = ctrl.ctx.account() ? 'home.recent.emptyAccount' : 'home.recent.empty';
    body = h('p.muted', { attrs: { 'data-testid': 'recent-empty' } }, t(key));
  }
  else body = h('ul.recent-list', ctrl.games.map(recentItem));
  return h('div.recent', { attrs: { 'data-testid': 'recent-games' } }, [body]);
}

/** The games in progress on the site, each linked to its page. */
function liveCard(ctrl: HomeCtrl): VNode | null {
  const games = ctrl.live;
  if (games === null) return null;
  const side = (g: LiveGame, c: 'white' | 'black') => {
    const p = g.players.find((x) => x.color === c);
    return `${p?.user?.name ?? '?'}${p?.rating ? ` (${p.rating})` : ''}`;
  };
  return h('section.card.live-card', { attrs: { 'aria-labelledby': 'live-title', 'data-testid': 'home-live' } }, [
    h('h2', { attrs: { id: 'live-title' } }, t('home.live.title')),
    games.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'home-live-none' } }, t('home.live.none'))
      : h(
          'ul.recent-list',
          games.map((g) =>
            h('li', [
              h('a.recent-item', { attrs: { href: `/game/${encodeURIComponent(g.id)}`, 'data-testid': 'home-live-game', 'data-id': g.id } }, [
                h('span.recent-main', [h('strong', `${side(g, 'white')} – ${side(g, 'black')}`), h('span.muted', t(g.perf === 'chess960' ? 'variant.chess960' : (`speed.${g.perf === 'ultraBullet' ? 'bullet' : g.perf}` as Key)))]),
              ]),
            ]),
          ),
        ),
    h('p', [h('a', { attrs: { href: '/tv', 'data-testid': 'home-tv-link' } }, t('home.live.tv'))]),
  ]);
}

/** The whole home page. */
/** The followed players online, for an account (nothing while loading). */
function friendsCard(ctrl: HomeCtrl): VNode | null {
  const friends = ctrl.friends;
  if (!friends) return null;
  return h('section.card.friends-card', { attrs: { 'aria-labelledby': 'friends-title', 'data-testid': 'friends-online' } }, [
    h('h2', { attrs: { id: 'friends-title' } }, t('rel.friends.title')),
    friends.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'friends-none' } }, t('rel.friends.none'))
      : h(
          'ul.rel-list',
          friends.map((f) => h('li', { attrs: { 'data-testid': 'friend-online', 'data-name': f.name } }, [h('a', { attrs: { href: profilePath(f.name) } }, f.name), h('span.online-dot', { attrs: { 'aria-hidden': 'true' } })])),
        ),
  ]);
}

/** The home page. */
export function homeView(ctrl: HomeCtrl): VNode {
  return h('div.home', [
    h('section.card.play-card', { attrs: { 'aria-labelledby': 'play-title' } }, [
      h('h1', { attrs: { id: 'play-title' } }, t('home.play.title')),
      h('p.intro', t('home.play.intro')),
      newGameView(ctrl.newGame),
    ]),
    h('div.home-side', [
      friendsCard(ctrl),
      h('section.card.arenas-card', { attrs: { 'aria-labelledby': 'arenas-title' } }, [
        h('h2', { attrs: { id: 'arenas-title' } }, t('arena.list.title')),
        h('p', [h('a', { attrs: { href: '/tournament', 'data-testid': 'home-tournaments-link' } }, t('arena.home.link'))]),
      ]),
      liveCard(ctrl),
      h('section.card.recent-card', { attrs: { 'aria-labelledby': 'recent-title' } }, [h('h2', { attrs: { id: 'recent-title' } }, t('home.recent.title')), recent(ctrl)]),
      h('section.card.tips-card', { attrs: { 'aria-labelledby': 'tips-title', 'data-testid': 'tips' } }, [
        h('h2', { attrs: { id: 'tips-title' } }, t('home.tips.title')),
        h('ul.tips', [h('li', t('home.tips.move')), h('li', t('home.tips.keyboard')), h('li', t('home.tips.undo'))]),
        h('p', [h('a', { attrs: { href: '/account/preferences', 'data-testid': 'home-prefs-link' } }, t('home.prefs'))]),
      ]),
    ]),
  ]);
}
