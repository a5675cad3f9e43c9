//! The "Play the computer" settings (level, colour, variant, Chess960
//! position, rules, start FEN, clock) and starting the game: the form's controller,
//! used on the home page and in the game page's New game dialog. The last
//! choices are remembered.
import { ApiError, type Color, createComputerGame, LEVELS, type Level, type NewGameRequest, type Rules, type Variant } from '../api.js';
import { PRESETS, tcLabel } from '../tables.js';
import type { Key } from '../i18n.js';

const STORAGE_KEY = 'plyyard.newgame';

/** The form's choices. */
export interface Settings {
  level: Level;
  color: Color | 'random';
  variant: Variant;
  rules: Rules;
  positionMode: 'random' | 'chosen';
  positionNumber: string;
  /** A FEN to start from; empty for the variant's usual start. Not remembered. */
  fen: string;
  /** `none`, or a preset's label (`5+3`): the game is played with that clock. */
  clock: string;
}

/** The clocks offered: none, then the tables' presets. */
export const CLOCKS: readonly string[] = ['none', ...PRESETS.map(tcLabel)];

const DEFAULTS: Settings = { level: 'beginner', color: 'white', variant: 'standard', rules: 'plyyard', positionMode: 'random', positionNumber: '518', fen: '', clock: 'none' };

/** Loads the remembered settings, falling back to defaults field by field. */
export function loadSettings(): Settings {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Settings>;
    return {
      level: LEVELS.includes(raw.level as Level) ? (raw.level as Level) : DEFAULTS.level,
      color: raw.color === 'white' || raw.color === 'black' || raw.color === 'random' ? raw.color : DEFAULTS.color,
      variant: raw.variant === 'chess960' ? 'chess960' : 'standard',
      rules: raw.rules === 'fide' ? 'fide' : 'plyyard',
      positionMode: raw.positionMode === 'chosen' ? 'chosen' : 'random',
      positionNumber: typeof raw.positionNumber === 'string' ? raw.positionNumber : DEFAULTS.positionNumber,
      fen: '',
      clock: CLOCKS.includes(raw.clock as string) ? (raw.clock as string) : DEFAULTS.clock,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(s: Settings): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...s, fen: undefined }));
  } catch {
    // Not remembered when storage is unavailable.
  }
}

/** Turns settings into the request body, or an error key when the position number is invalid. */
export function toRequest(s: Settings): NewGameRequest | { error: Key } {
  const preset = PRESETS.find((tc) => tcLabel(tc) === s.clock);
  const clock = preset ? { clock: { minutes: preset.minutes, increment: preset.increment } } : {};
  const fen = s.fen.trim().replace(/\s+/g, ' ');
  if (fen !== '') {
    // The server judges the position; this only rejects what cannot be a FEN at all.
    if (!/^[1-8pnbrqkPNBRQK/]+( [wb]( \S+){0,4})?$/.test(fen) || fen.split(' ')[0]!.split('/').length !== 8) {
      return { error: 'home.fen.invalid' };
    }
    return { level: s.level, color: s.color, variant: s.variant, rules: s.rules, position: null, fen, ...clock };
  }
  let position: number | null = null;
  if (s.variant === 'chess960' && s.positionMode === 'chosen') {
    const text = s.positionNumber.trim();
    if (!/^\d{1,3}$/.test(text) || Number(text) > 959) return { error: 'home.position.invalid' };
    position = Number(text);
  }
  return { level: s.level, color: s.color, variant: s.variant, rules: s.rules, position, ...clock };
}

/** Why the server refused a start FEN (its `reason` code), as what the form says. */
const FEN_WHY: Record<string, Key> = {
  syntax: 'home.fen.why.syntax',
  empty_board: 'home.fen.why.empty_board',
  missing_king: 'home.fen.why.missing_king',
  too_many_kings: 'home.fen.why.too_many_kings',
  pawns_on_backrank: 'home.fen.why.pawns_on_backrank',
  castling_rights: 'home.fen.why.castling_rights',
  ep_square: 'home.fen.why.ep_square',
  opposite_check: 'home.fen.why.opposite_check',
  impossible_check: 'home.fen.why.impossible_check',
  too_much_material: 'home.fen.why.too_much_material',
  mated: 'home.fen.why.mated',
  stalemate: 'home.fen.why.stalemate',
  insufficient_material: 'home.fen.why.insufficient_material',
  over: 'home.fen.why.over',
};

let formCounter = 0;

/** The New game form's state; the view calls its methods. */
export class NewGameCtrl {
  /** Unique prefix of this form's element ids and radio names. */
  readonly uid = `ng${++formCounter}`;
  settings: Settings = loadSettings();
  /** The error shown under the form, as a translation key. */
  error: Key | null = null;
  /** Why a start FEN was refused (with `home.fen.refused`), when the server said. */
  why: Key | null = null;
  submitting = false;

  constructor(
    private readonly redraw: () => void,
    private readonly open: (path: string) => void,
  ) {}

  /** Changes one setting (remembered at once). */
  set<K extends keyof Settings>(key: K, value: Settings[K]): void {
    this.settings = { ...this.settings, [key]: value };
    saveSettings(this.settings);
    this.redraw();
  }

  /** Sends the request, then opens the new game; shows what went wrong otherwise. */
  submit(): void {
    if (this.submitting) return;
    saveSettings(this.settings);
    const req = toRequest(this.settings);
    if ('error' in req) {
      this.error = req.error;
      this.redraw();
      document.getElementById(`${this.uid}-${req.error === 'home.fen.invalid' ? 'fen' : 'pos'}`)?.focus();
      return;
    }
    this.error = null;
    this.why = null;
    this.submitting = true;
    this.redraw();
    createComputerGame(req)
      .then((game) => {
        this.submitting = false;
        this.open(`/game/${encodeURIComponent(game.id)}`);
      })
      .catch((err: unknown) => {
        this.submitting = false;
        if (err instanceof ApiError && err.code === 'network') this.error = 'error.network';
        else if (err instanceof ApiError && err.code === 'bad_request' && 'fen' in req) {
          this.why = FEN_WHY[err.reason ?? ''] ?? null;
          this.error = this.why ? 'home.fen.refused' : 'home.fen.invalid';
        }
        else this.error = 'error.generic';
        this.redraw();
      });
  }
}
