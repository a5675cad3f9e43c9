//! The puzzle themes as lichess groups them (crates/puzzle/src/theme.rs:
//! 72 keys in 9 groups, `mate` in two), each with its translated name.
import { type Key, t } from '../i18n.js';

/** A group of themes on the themes page. */
export interface ThemeGroup {
  key: string;
  name: Key;
  themes: readonly string[];
}

/** Every group, in lichess's order. */
export const THEME_GROUPS: readonly ThemeGroup[] = [
  { key: 'phases', name: 'puzzle.group.phases', themes: ['opening', 'middlegame', 'endgame', 'rookEndgame', 'bishopEndgame', 'pawnEndgame', 'knightEndgame', 'queenEndgame', 'queenRookEndgame'] },
  { key: 'motifs', name: 'puzzle.group.motifs', themes: ['advancedPawn', 'attackingF2F7', 'capturingDefender', 'discoveredAttack', 'doubleCheck', 'exposedKing', 'fork', 'hangingPiece', 'kingsideAttack', 'pin', 'queensideAttack', 'sacrifice', 'skewer', 'trappedPiece'] },
  { key: 'advanced', name: 'puzzle.group.advanced', themes: ['attraction', 'clearance', 'discoveredCheck', 'defensiveMove', 'deflection', 'interference', 'intermezzo', 'quietMove', 'xRayAttack', 'zugzwang'] },
  { key: 'mates', name: 'puzzle.group.mates', themes: ['mate', 'mateIn1', 'mateIn2', 'mateIn3', 'mateIn4', 'mateIn5'] },
  { key: 'mateThemes', name: 'puzzle.group.mateThemes', themes: ['anastasiaMate', 'arabianMate', 'backRankMate', 'balestraMate', 'blindSwineMate', 'bodenMate', 'cornerMate', 'doubleBishopMate', 'dovetailMate', 'epauletteMate', 'hookMate', 'killBoxMate', 'morphysMate', 'operaMate', 'pillsburysMate', 'smotheredMate', 'swallowstailMate', 'triangleMate', 'vukovicMate'] },
  { key: 'specialMoves', name: 'puzzle.group.specialMoves', themes: ['castling', 'enPassant', 'promotion', 'underPromotion'] },
  { key: 'goals', name: 'puzzle.group.goals', themes: ['equality', 'advantage', 'crushing', 'mate'] },
  { key: 'lengths', name: 'puzzle.group.lengths', themes: ['oneMove', 'short', 'long', 'veryLong'] },
  { key: 'origin', name: 'puzzle.group.origin', themes: ['master', 'masterVsMaster', 'superGM'] },
];

/** Each theme's name. */
const THEME_NAMES: Readonly<Record<string, Key>> = {
  opening: 'puzzle.theme.opening',
  middlegame: 'puzzle.theme.middlegame',
  endgame: 'puzzle.theme.endgame',
  rookEndgame: 'puzzle.theme.rookEndgame',
  bishopEndgame: 'puzzle.theme.bishopEndgame',
  pawnEndgame: 'puzzle.theme.pawnEndgame',
  knightEndgame: 'puzzle.theme.knightEndgame',
  queenEndgame: 'puzzle.theme.queenEndgame',
  queenRookEndgame: 'puzzle.theme.queenRookEndgame',
  advancedPawn: 'puzzle.theme.advancedPawn',
  attackingF2F7: 'puzzle.theme.attackingF2F7',
  capturingDefender: 'puzzle.theme.capturingDefender',
  discoveredAttack: 'puzzle.theme.discoveredAttack',
  doubleCheck: 'puzzle.theme.doubleCheck',
  exposedKing: 'puzzle.theme.exposedKing',
  fork: 'puzzle.theme.fork',
  hangingPiece: 'puzzle.theme.hangingPiece',
  kingsideAttack: 'puzzle.theme.kingsideAttack',
  pin: 'puzzle.theme.pin',
  queensideAttack: 'puzzle.theme.queensideAttack',
  sacrifice: 'puzzle.theme.sacrifice',
  skewer: 'puzzle.theme.skewer',
  trappedPiece: 'puzzle.theme.trappedPiece',
  attraction: 'puzzle.theme.attraction',
  clearance: 'puzzle.theme.clearance',
  discoveredCheck: 'puzzle.theme.discoveredCheck',
  defensiveMove: 'puzzle.theme.defensiveMove',
  deflection: 'puzzle.theme.deflection',
  interference: 'puzzle.theme.interference',
  intermezzo: 'puzzle.theme.intermezzo',
  quietMove: 'puzzle.theme.quietMove',
  xRayAttack: 'puzzle.theme.xRayAttack',
  zugzwang: 'puzzle.theme.zugzwang',
  mate: 'puzzle.theme.mate',
  mateIn1: 'puzzle.theme.mateIn1',
  mateIn2: 'puzzle.theme.mateIn2',
  mateIn3: 'puzzle.theme.mateIn3',
  mateIn4: 'puzzle.theme.mateIn4',
  mateIn5: 'puzzle.theme.mateIn5',
  anastasiaMate: 'puzzle.theme.anastasiaMate',
  arabianMate: 'puzzle.theme.arabianMate',
  backRankMate: 'puzzle.theme.backRankMate',
  balestraMate: 'puzzle.theme.balestraMate',
  blindSwineMate: 'puzzle.theme.blindSwineMate',
  bodenMate: 'puzzle.theme.bodenMate',
  cornerMate: 'puzzle.theme.cornerMate',
  doubleBishopMate: 'puzzle.theme.doubleBishopMate',
  dovetailMate: 'puzzle.theme.dovetailMate',
  epauletteMate: 'puzzle.theme.epauletteMate',
  hookMate: 'puzzle.theme.hookMate',
  killBoxMate: 'puzzle.theme.killBoxMate',
  morphysMate: 'puzzle.theme.morphysMate',
  operaMate: 'puzzle.theme.operaMate',
  pillsburysMate: 'puzzle.theme.pillsburysMate',
  smotheredMate: 'puzzle.theme.smotheredMate',
  swallowstailMate: 'puzzle.theme.swallowstailMate',
  triangleMate: 'puzzle.theme.triangleMate',
  vukovicMate: 'puzzle.theme.vukovicMate',
  castling: 'puzzle.theme.castling',
  enPassant: 'puzzle.theme.enPassant',
  promotion: 'puzzle.theme.promotion',
  underPromotion: 'puzzle.theme.underPromotion',
  equality: 'puzzle.theme.equality',
  advantage: 'puzzle.theme.advantage',
  crushing: 'puzzle.theme.crushing',
  oneMove: 'puzzle.theme.oneMove',
  short: 'puzzle.theme.short',
  long: 'puzzle.theme.long',
  veryLong: 'puzzle.theme.veryLong',
  master: 'puzzle.theme.master',
  masterVsMaster: 'puzzle.theme.masterVsMaster',
  superGM: 'puzzle.theme.superGM',
};

/** Is `key` one of the themes (not an opening)? */
export function isTheme(key: string): boolean {
  return key in THEME_NAMES;
}

/** A theme's name (an opening key with its underscores as spaces; anything else as it is). */
export function themeName(key: string): string {
  const k = THEME_NAMES[key];
  if (k) return t(k);
  return key.replace(/_/g, ' ');
}

/** An angle's name: the mix, or a theme or opening. */
export function angleName(angle: string): string {
  return angle === 'mix' ? t('puzzle.angle.mix') : themeName(angle);
}

/** The themes offered in the trainer's selector (the common ones). */
export const COMMON_ANGLES: readonly string[] = ['mix', 'mateIn1', 'mateIn2', 'mateIn3', 'fork', 'pin', 'skewer', 'discoveredAttack', 'doubleCheck', 'hangingPiece', 'sacrifice', 'backRankMate', 'smotheredMate', 'promotion', 'opening', 'middlegame', 'endgame', 'rookEndgame', 'pawnEndgame', 'short', 'long', 'oneMove', 'advantage', 'crushing', 'mate'];
