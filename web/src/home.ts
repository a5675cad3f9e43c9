//! The home page: the "Play the computer" panel and this browser's recent games.
import { type GameSummary, myGames } from './api.js';
import { h, replace } from './dom.js';
import { type Key, lang, t } from './i18n.js';
import { newGameForm } from './newgame.js';
import { resultText } from './result.js';

/** Renders the home page into `root`; returns a function that re-renders texts (language change). */
export function homePage(root: HTMLElement): () => void {
  let games: GameSummary[] | null = null;
  let failed = false;

  const render = () => {
    document.title = `${t('site.name')} · ${t('home.play.title')}`;
    const list = h('div', { class: 'recent', 'data-testid': 'recent-games' });
    if (failed) list.append(h('p', { class: 'muted' }, t('error.network')));
    else if (games === null) list.append(h('p', { class: 'muted', 'aria-busy': 'true' }, '…'));
    else if (games.length === 0) list.append(h('p', { class: 'muted', 'data-testid': 'recent-empty' }, t('home.recent.empty')));
    else list.append(h('ul', { class: 'recent-list' }, ...games.map(recentItem)));

    replace(
      root,
      h(
        'div',
        { class: 'home' },
        h(
          'section',
          { class: 'card play-card', 'aria-labelledby': 'play-title' },
          h('h1', { id: 'play-title' }, t('home.play.title')),
          h('p', { class: 'intro' }, t('home.play.intro')),
          newGameForm(),
        ),
        h(
          'div',
          { class: 'home-side' },
          h('section', { class: 'card recent-card', 'aria-labelledby': 'recent-title' }, h('h2', { id: 'recent-title' }, t('home.recent.title')), list),
          h(
            'section',
            { class: 'card tips-card', 'aria-labelledby': 'tips-title', 'data-testid': 'tips' },
            h('h2', { id: 'tips-title' }, t('home.tips.title')),
            h('ul', { class: 'tips' }, h('li', {}, t('home.tips.move')), h('li', {}, t('home.tips.keyboard')), h('li', {}, t('home.tips.undo'))),
          ),
        ),
      ),
    );
  };

  render();
  myGames()
    .then((g) => {
      games = g;
      render();
    })
    .catch(() => {
      failed = true;
      render();
    });
  return render;
}

function recentItem(g: GameSummary): HTMLElement {
  const date = new Date(g.updated_at || g.created_at);
  const when = Number.isNaN(date.getTime())
    ? ''
    : new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  const outcome = g.status === 'ongoing' ? t('status.ongoing') : resultText(g.result, g.you).headline;
  const moves = Math.ceil(g.plies / 2);
  return h(
    'li',
    {},
    h(
      'a',
      { class: 'recent-item', href: `/game/${encodeURIComponent(g.id)}`, 'data-testid': 'recent-game', 'data-id': g.id },
      h('span', { class: `piece-dot ${g.you ?? 'white'}`, 'aria-hidden': 'true' }),
      h(
        'span',
        { class: 'recent-main' },
        h('strong', {}, g.level ? t('home.recent.opponent', { level: t(`level.${g.level}` as Key) }) : '—'),
        h('span', { class: 'muted' }, [t(`variant.${g.variant}` as Key), g.you ? t(`color.${g.you}` as Key) : null, t('home.recent.moves', { count: moves })].filter(Boolean).join(' · ')),
      ),
      h('span', { class: `recent-outcome${g.status === 'ongoing' ? ' live' : ''}` }, h('span', {}, outcome), h('span', { class: 'muted small' }, when)),
    ),
  );
}
