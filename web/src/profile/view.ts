//! The profile page: the player's name, when they joined, their rating per
//! speed with the rated games won, drawn and lost there, its graph over time, the challenge section, follows and followers, and their games
//! (players, result, moves, date, a link to the game and to its PGN), paged.
import { h, type VNode } from 'snabbdom';
import { type GameListItem, pgnUrl, profilePath, type Seat } from '../api.js';
import { dateTime } from '../home/view.js';
import { type Key, lang, t, tp } from '../i18n.js';
import { isReviewable, outcomeText } from '../result.js';
import { seatName } from '../seat.js';
import { ratingLabel } from '../tables.js';
import { challengeView } from './challenge-view.js';
import { reportView } from './report-view.js';
import type { ProfileCtrl } from './ctrl.js';
import { ratingGraph } from './graph.js';
import { isFiltered } from '../game-search.js';
import { relationsView } from './relations-view.js';
import { searchView } from './search-view.js';

function seatView(seat: Seat): VNode {
  if (seat.kind === 'user' && seat.name) return h('a.seat', { attrs: { href: profilePath(seat.name) } }, seat.name);
  return h(`span.seat.${seat.kind}`, seatName(seat));
}

function gameItem(g: GameListItem): VNode {
  const outcome = outcomeText(g, null);
  const players = t('profile.players', { white: '\u0001', black: '\u0002' });
  const white = players.indexOf('\u0001');
  const black = players.indexOf('\u0002');
  // The players' names are links, placed where the language's template puts them.
  const parts: Array<VNode | string> = [];
  const first = white < black ? g.white : g.black;
  const second = white < black ? g.black : g.white;
  parts.push(players.slice(0, Math.min(white, black)), seatView(first), players.slice(Math.min(white, black) + 1, Math.max(white, black)), seatView(second), players.slice(Math.max(white, black) + 1));
  const href = `/game/${encodeURIComponent(g.id)}`;
  return h('li.profile-game', { attrs: { 'data-testid': 'profile-game', 'data-id': g.id } }, [
    h('span.profile-players', parts.filter((p) => p !== '')),
    h('span.profile-meta.muted', [t(`variant.${g.variant}` as Key), g.clock, g.kind === 'table' ? t(g.rated ? 'multiplayer.rated' : 'multiplayer.casual') : null, tp('home.recent.moves', Math.ceil(g.plies / 2)), dateTime(g.updated_at || g.created_at)].filter(Boolean).join(' · ')),
    h('span.profile-result', [
      h('span', { attrs: { 'data-testid': 'profile-result' } }, [outcome.headline, outcome.reason].filter(Boolean).join(', ')),
      g.rating_diff === null ? null : h(`span.rating-change.${g.rating_diff >= 0 ? 'up' : 'down'}`, { attrs: { 'data-testid': 'profile-rating-diff' } }, ` ${g.rating_diff >= 0 ? '+' : '−'}${Math.abs(g.rating_diff)}`),
    ]),
    h('span.profile-links', [
      h('a.button', { attrs: { href, 'data-testid': 'profile-game-link' } }, t('profile.open')),
      h('a.button', { attrs: { href: pgnUrl(g.id), download: `plyyard-${g.id}.pgn`, 'data-testid': 'profile-game-pgn' } }, t('profile.pgn')),
      isReviewable(g) ? h('a.button', { attrs: { href: `${href}/review`, 'data-testid': 'profile-game-review' } }, t('review.link')) : null,
      isReviewable(g) ? h('a.button', { attrs: { href: `/analysis?game=${encodeURIComponent(g.id)}&ply=${g.plies}`, 'data-testid': 'profile-game-analysis' } }, t('analysis.link')) : null,
    ]),
  ]);
}

/** The whole profile page. */
export function profileView(ctrl: ProfileCtrl): VNode {
  if (ctrl.error) {
    return h('div.card.not-found', { attrs: { 'data-testid': 'profile-error' } }, [h('h1', ctrl.error === 'missing' ? t('profile.notFound') : t('error.network'))]);
  }
  const user = ctrl.user;
  const page = ctrl.games;
  if (!user || !page) return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
  const joined = new Date(user.created_at);
  return h('section.card.profile', { attrs: { 'data-testid': 'profile', 'aria-labelledby': 'profile-name' } }, [
    h('h1', { attrs: { id: 'profile-name', 'data-testid': 'profile-name' } }, user.username),
    user.closed ? h('p.notice', { attrs: { 'data-testid': 'profile-closed' } }, t('profile.closed')) : null,
    ctrl.ctx.account()?.role ? h('p', [h('a', { attrs: { href: `/mod/user/${encodeURIComponent(user.username)}`, 'data-testid': 'profile-moderate' } }, t('profile.moderate'))]) : null,
    ctrl.canChallenge() && !user.closed ? challengeView(ctrl.challenge, user.username) : null,
    ctrl.canChallenge() ? reportView(ctrl.report) : null,
    Number.isNaN(joined.getTime()) ? null : h('p.muted', t('profile.since', { date: new Intl.DateTimeFormat(lang(), { dateStyle: 'long' }).format(joined) })),
    user.ratings
      ? h(
          'ul.profile-ratings',
          { attrs: { 'data-testid': 'profile-ratings', 'aria-label': t('profile.ratings') } },
          (['bullet', 'blitz', 'rapid', 'classical'] as const).flatMap((speed) => {
            const r = user.ratings?.[speed];
            const won = user.results?.[speed];
            return r
              ? [
                  h('li', { attrs: { 'data-testid': `profile-rating-${speed}` } }, [
                    h('a.muted', { attrs: { href: `${profilePath(user.username)}/perf/${speed}`, title: t('profile.perfLink'), 'data-testid': `profile-perf-${speed}` } }, t(`speed.${speed}` as Key)),
                    ' ',
                    h('strong', ratingLabel(r)),
                    won ? h('span.muted.small', { attrs: { 'data-testid': `profile-results-${speed}` } }, ` · ${t('profile.results', { win: won.win, draw: won.draw, loss: won.loss })}`) : null,
                  ]),
                ]
              : [];
          }),
        )
      : null,
    ratingGraph(ctrl.history),
    relationsView(ctrl.relations),
    h('h2', [t('profile.games'), page.page > 1 ? h('span.muted.small', ` · ${t('profile.page', { n: page.page })}`) : null]),
    searchView(ctrl),
    page.games.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'profile-empty' } }, t(isFiltered(ctrl.search) ? 'search.none' : 'profile.empty'))
      : h('ul.profile-games', { attrs: { 'data-testid': 'profile-games' } }, page.games.map(gameItem)),
    h('nav.pager', [
      page.page > 1 ? h('a.button', { attrs: { href: ctrl.pageHref(page.page - 1), 'data-testid': 'profile-prev' } }, t('profile.prev')) : null,
      page.more ? h('a.button', { attrs: { href: ctrl.pageHref(page.page + 1), 'data-testid': 'profile-more' } }, t('profile.more')) : null,
    ]),
  ]);
}
