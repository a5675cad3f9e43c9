//! The "Play the computer" settings (level, colour, variant, Chess960
//! position) and starting the game. Used on the home page and in the game
//! page's New game dialog. The last choices are remembered.
import { ApiError, type Color, createComputerGame, LEVELS, type Level, type NewGameRequest, type Rules, type Variant } from './api.js';
import { h } from './dom.js';
import { type Key, t } from './i18n.js';

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
}

const DEFAULTS: Settings = { level: 'beginner', color: 'white', variant: 'standard', rules: 'plyyard', positionMode: 'random', positionNumber: '518', fen: '' };

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
    };
  } catch {
    return { ...DEFAULTS };
  }
}

function saveSettings(s: Settings): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...s, fen: undefined }));
  } catch {
    // Not remembered when storage is unavailable.
  }
}

/** Turns settings into the request body, or an error key when the position number is invalid. */
export function toRequest(s: Settings): NewGameRequest | { error: Key } {
  const fen = s.fen.trim().replace(/\s+/g, ' ');
  if (fen !== '') {
    // The server judges the position; this only rejects what cannot be a FEN at all.
    if (!/^[1-8pnbrqkPNBRQK/]+( [wb]( \S+){0,4})?$/.test(fen) || fen.split(' ')[0]!.split('/').length !== 8) {
      return { error: 'home.fen.invalid' };
    }
    return { level: s.level, color: s.color, variant: s.variant, rules: s.rules, position: null, fen };
  }
  let position: number | null = null;
  if (s.variant === 'chess960' && s.positionMode === 'chosen') {
    const text = s.positionNumber.trim();
    if (!/^\d{1,3}$/.test(text) || Number(text) > 959) return { error: 'home.position.invalid' };
    position = Number(text);
  }
  return { level: s.level, color: s.color, variant: s.variant, rules: s.rules, position };
}

let formCounter = 0;

/** Builds the settings form; submitting creates the game and opens it. */
export function newGameForm(): HTMLFormElement {
  const s = loadSettings();
  const uid = `ng${++formCounter}`;

  const group = <T extends string>(name: keyof Settings, legend: Key, options: readonly T[], label: (o: T) => Key, current: string) =>
    h(
      'fieldset',
      { class: 'choice-group' },
      h('legend', {}, t(legend)),
      h(
        'div',
        { class: 'chips' },
        ...options.map((o) =>
          h(
            'label',
            { class: 'chip' },
            h('input', { type: 'radio', name: `${uid}-${name}`, value: o, checked: o === current, 'data-testid': `${name === 'positionMode' ? 'position' : name}-${o}` }),
            h('span', {}, t(label(o))),
          ),
        ),
      ),
    );

  const numberId = `${uid}-pos`;
  const errorId = `${uid}-err`;
  const number = h('input', {
    id: numberId,
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'off',
    maxlength: 3,
    value: s.positionNumber,
    'aria-describedby': errorId,
    'data-testid': 'position-number',
  });
  const error = h('p', { id: errorId, class: 'form-error', role: 'alert', 'data-testid': 'new-game-error' });
  const submit = h('button', { type: 'submit', class: 'primary big', 'data-testid': 'new-game-submit' }, t('home.newGame'));

  const fenId = `${uid}-fen`;
  const fenInput = h('input', {
    id: fenId,
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'aria-describedby': `${fenId}-help ${errorId}`,
    'data-testid': 'start-fen',
  });
  const fenBox = h(
    'details',
    { class: 'fen-options' },
    h('summary', { 'data-testid': 'start-fen-toggle' }, t('home.fen.toggle')),
    h('div', { class: 'field wide' }, h('label', { for: fenId }, t('home.fen.label')), fenInput, h('p', { id: `${fenId}-help`, class: 'muted small' }, t('home.fen.help'))),
  );

  const chess960Box = h(
    'div',
    { class: 'chess960-options' },
    group('positionMode', 'home.position', ['random', 'chosen'] as const, (o) => (o === 'random' ? 'home.position.random' : 'home.position.chosen'), s.positionMode),
    h('div', { class: 'field' }, h('label', { for: numberId }, t('home.position.number')), number),
  );

  const form = h(
    'form',
    { class: 'new-game-form', 'data-testid': 'new-game-form', novalidate: true },
    group('level', 'home.level', LEVELS, (l) => `level.${l}` as Key, s.level),
    group('color', 'home.color', ['white', 'black', 'random'] as const, (c) => `color.${c}` as Key, s.color),
    group('variant', 'home.variant', ['standard', 'chess960'] as const, (v) => `variant.${v}` as Key, s.variant),
    chess960Box,
    group('rules', 'home.rules', ['plyyard', 'fide'] as const, (r) => `rules.${r}` as Key, s.rules),
    h('p', { class: 'muted small rules-help' }, t('home.rules.help')),
    fenBox,
    error,
    submit,
  );

  const read = (): Settings => {
    const v = (name: string) => (form.querySelector(`input[name="${uid}-${name}"]:checked`) as HTMLInputElement | null)?.value ?? '';
    return {
      level: v('level') as Level,
      color: v('color') as Settings['color'],
      variant: v('variant') as Variant,
      rules: v('rules') === 'fide' ? 'fide' : 'plyyard',
      positionMode: v('positionMode') === 'chosen' ? 'chosen' : 'random',
      positionNumber: number.value,
      fen: fenInput.value,
    };
  };
  const sync = () => {
    const cur = read();
    saveSettings(cur);
    chess960Box.hidden = cur.variant !== 'chess960';
    number.disabled = cur.positionMode !== 'chosen';
  };
  form.addEventListener('change', sync);
  sync();

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const cur = read();
    saveSettings(cur);
    const req = toRequest(cur);
    if ('error' in req) {
      error.textContent = t(req.error);
      (req.error === 'home.fen.invalid' ? fenInput : number).focus();
      return;
    }
    error.textContent = '';
    submit.disabled = true;
    submit.textContent = t('home.creating');
    createComputerGame(req)
      .then((game) => location.assign(`/game/${encodeURIComponent(game.id)}`))
      .catch((err: unknown) => {
        submit.disabled = false;
        submit.textContent = t('home.newGame');
        if (err instanceof ApiError && err.code === 'network') error.textContent = t('error.network');
        else if (err instanceof ApiError && err.code === 'bad_request' && 'fen' in req) error.textContent = t('home.fen.invalid');
        else error.textContent = t('error.generic');
      });
  });
  return form;
}
