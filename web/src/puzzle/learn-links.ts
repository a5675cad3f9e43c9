//! Links from a Learn page to the puzzle themes it teaches (the tactics
//! page to forks, pins, skewers …), shown under the article.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { themeName } from './themes.js';

/** The puzzle themes of each Learn page that has some. */
const THEMES_OF_PAGE: Readonly<Record<string, readonly string[]>> = {
  tactics: ['fork', 'pin', 'skewer', 'discoveredAttack', 'doubleCheck', 'sacrifice', 'hangingPiece'],
  'check-mate-stalemate': ['mateIn1', 'mateIn2', 'backRankMate', 'smotheredMate'],
  castling: ['castling'],
  'en-passant': ['enPassant'],
  promotion: ['promotion', 'underPromotion'],
  openings: ['opening'],
  'endgame-king': ['endgame', 'pawnEndgame'],
  'worked-example': ['attackingF2F7', 'mateIn1'],
};

/** The links to train the themes of Learn page `slug` (null when it has none). */
export function learnPuzzleLinks(slug: string | null): VNode | null {
  const themes = slug === null ? undefined : THEMES_OF_PAGE[slug];
  if (!themes) return null;
  return h('aside.learn-puzzles', { attrs: { 'data-testid': 'learn-puzzles' } }, [
    h('span', t('puzzle.learnLinks')),
    ' ',
    ...themes.flatMap((k, i) => [i > 0 ? ' · ' : '', h('a', { attrs: { href: `/training/${k}`, 'data-testid': `learn-puzzle-${k}` } }, themeName(k))]),
  ]);
}
