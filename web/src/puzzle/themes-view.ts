//! The themes page: the groups of themes, each theme a link to `/training/{theme}`.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import type { ThemesCtrl } from './themes-page.js';
import { THEME_GROUPS, themeName } from './themes.js';
import { puzzleNav } from './view.js';

/** The themes page. */
export function themesView(_ctrl: ThemesCtrl): VNode {
  return h('section.card.puzzle-themes-page', { attrs: { 'data-testid': 'puzzle-themes-page' } }, [
    puzzleNav('/training/themes'),
    h('h1', t('puzzle.themes.title')),
    h('p.muted', t('puzzle.themes.intro')),
    h('p', [h('a.button.primary', { attrs: { href: '/training', 'data-testid': 'puzzle-theme-mix' } }, t('puzzle.angle.mix'))]),
    ...THEME_GROUPS.map((g) =>
      h('section.puzzle-theme-group', { attrs: { 'data-testid': `puzzle-group-${g.key}` } }, [
        h('h2', t(g.name)),
        h(
          'ul.puzzle-theme-list',
          g.themes.map((k) => h('li', [h('a', { attrs: { href: `/training/${k}`, 'data-testid': `puzzle-theme-${k}` } }, themeName(k))])),
        ),
      ]),
    ),
  ]);
}
