//! The TV page: the channel list (each with its featured game's player
//! and rating) and the chosen channel's game: board, players, clocks, and
//! a link to the game's own page.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { type Key, t } from '../i18n.js';
import { type ChannelKey, CHANNELS, type TvPlayer } from './api.js';
import type { TvCtrl } from './ctrl.js';

function channelItem(ctrl: TvCtrl, key: ChannelKey): VNode {
  const game = ctrl.channels?.[key];
  return h('li', [
    h(
      'a.tv-channel',
      { class: { active: key === ctrl.channel }, attrs: { href: `/tv/${key}`, 'data-testid': `tv-channel-${key}`, 'aria-current': key === ctrl.channel ? 'page' : false } },
      [h('strong', t(`tv.channel.${key}` as Key)), game ? h('span.muted.small', `${game.user?.name ?? '?'} ${game.rating ?? ''}`.trim()) : h('span.muted.small', '–')],
    ),
  ]);
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

function playerLine(ctrl: TvCtrl, p: TvPlayer | undefined, where: 'top' | 'bottom'): VNode {
  if (!p) return h('div');
  const name = p.user ? h('a', { attrs: { href: profilePath(p.user.name) } }, [p.user.title ? h('span.title', `${p.user.title} `) : null, p.user.name]) : h('span', t('tv.computer', { level: p.ai ?? 1 }));
  return h(`div.tv-player.${where}`, { attrs: { 'data-testid': `tv-player-${where}`, 'data-color': p.color } }, [
    name,
    p.rating ? h('span.muted', ` ${p.rating}`) : null,
    h('span.tv-clock', { class: { running: ctrl.turn() === p.color }, attrs: { 'data-testid': `tv-clock-${where}` } }, clock(ctrl.secondsLeft(p.color))),
  ]);
}

/** The whole TV page. */
export function tvView(ctrl: TvCtrl): VNode {
  const a = ctrl.onAir;
  const top = a?.players.find((p) => p.color !== a.orientation);
  const bottom = a?.players.find((p) => p.color === a.orientation);
  return h('div.tv-page', { attrs: { 'data-testid': 'tv' } }, [
    h('nav.card.tv-channels', { attrs: { 'aria-label': t('tv.channels') } }, [h('h1', t('tv.title')), h('ul', CHANNELS.map((c) => channelItem(ctrl, c)))]),
    h('section.card.tv-main', [
      h('h2', t(`tv.channel.${ctrl.channel}` as Key)),
      ctrl.failed ? h('p.muted', t('error.network')) : null,
      a
        ? h('div.tv-game', { attrs: { 'data-testid': 'tv-game', 'data-id': a.id, 'data-fen': a.fen } }, [
            playerLine(ctrl, top, 'top'),
            h('div.tv-board.cg-wrap-outer', { hook: { insert: (v) => ctrl.mountBoard(v.elm as HTMLElement), destroy: () => ctrl.unmountBoard() } }),
            playerLine(ctrl, bottom, 'bottom'),
            h('p', [h('a.button', { attrs: { href: `/game/${encodeURIComponent(a.id)}`, 'data-testid': 'tv-open' } }, t('tv.open'))]),
          ])
        : ctrl.failed
          ? null
          : h('p.muted', { attrs: { 'data-testid': 'tv-none' } }, t('tv.none')),
    ]),
  ]);
}
