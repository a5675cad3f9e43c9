//! The profile's game search form: opponent, colour, result, speed,
//! rated, analysed and dates; sent, it opens the profile at the filtered
//! URL (so the search can be shared, paged and gone back to).
import { h, type VNode } from 'snabbdom';
import { type Key, t } from '../i18n.js';
import type { ProfileCtrl } from './ctrl.js';
import { type GameSearch, isFiltered, SEARCH_CHOICES, SEARCH_KEYS } from '../game-search.js';

type SelectKey = keyof typeof SEARCH_CHOICES;

/** The label of each select's choice (`''`: any). */
function choiceLabel(key: SelectKey, value: string): string {
  if (value === '') return t('search.any');
  switch (key) {
    case 'color':
      return t(`color.${value}` as Key);
    case 'result':
      return t(`search.result.${value}` as Key);
    case 'perfType':
      return value === 'chess960' ? t('variant.chess960') : t(`speed.${value}` as Key);
    case 'rated':
      return value === 'true' ? t('multiplayer.rated') : t('multiplayer.casual');
    case 'analysed':
      return value === 'true' ? t('search.analysed.yes') : t('search.analysed.no');
  }
}

function select(key: SelectKey, current: GameSearch): VNode {
  const id = `search-${key}`;
  return h('div.field', [
    h('label', { attrs: { for: id } }, t(`search.${key}` as Key)),
    h(
      'select',
      { attrs: { id, name: key, 'data-testid': id } },
      SEARCH_CHOICES[key].map((v) => h('option', { attrs: { value: v }, props: { selected: (current[key] ?? '') === v } }, choiceLabel(key, v))),
    ),
  ]);
}

function input(key: 'vs' | 'since' | 'until', type: string, current: GameSearch): VNode {
  const id = `search-${key}`;
  return h('div.field', [
    h('label', { attrs: { for: id } }, t(`search.${key}` as Key)),
    h('input', { attrs: { id, name: key, type, maxlength: 30, autocomplete: 'off', 'data-testid': id }, props: { value: current[key] ?? '' } }),
  ]);
}

/** The search form, open when the page is filtered or the player opened it. */
export function searchView(ctrl: ProfileCtrl): VNode {
  const current = ctrl.search;
  return h('details.game-search', { attrs: { 'data-testid': 'games-search', open: ctrl.searchOpen || isFiltered(current) } }, [
    h('summary', t('search.title')),
    h(
      'form.search-form',
      {
        attrs: { 'data-testid': 'games-search-form' },
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            const data = new FormData(e.target as HTMLFormElement);
            const next: GameSearch = {};
            for (const key of SEARCH_KEYS) {
              const v = String(data.get(key) ?? '').trim();
              if (v) next[key] = v;
            }
            ctrl.applySearch(next);
          },
        },
      },
      [
        input('vs', 'text', current),
        select('color', current),
        select('result', current),
        select('perfType', current),
        select('rated', current),
        select('analysed', current),
        input('since', 'date', current),
        input('until', 'date', current),
        h('div.buttons', [
          h('button.primary', { attrs: { type: 'submit', 'data-testid': 'search-submit' } }, t('search.submit')),
          isFiltered(current) ? h('button', { attrs: { type: 'button', 'data-testid': 'search-clear' }, on: { click: () => ctrl.applySearch({}) } }, t('search.clear')) : null,
        ]),
      ],
    ),
  ]);
}
