//! The New game form as a function of its controller.
import { h, type VNode } from 'snabbdom';
import { LEVELS } from '../api.js';
import { choiceGroup } from '../choices.js';
import { type Key, t } from '../i18n.js';
import { CLOCKS, type NewGameCtrl, type Settings } from './ctrl.js';

type Choice = 'level' | 'color' | 'variant' | 'rules' | 'positionMode' | 'clock';

function group<T extends string>(ctrl: NewGameCtrl, name: Choice, legend: Key, options: readonly T[], label: (o: T) => Key, text?: (o: T) => string | null): VNode {
  return choiceGroup({
    legend,
    name: `${ctrl.uid}-${name}`,
    options,
    current: ctrl.settings[name] as T,
    label,
    text,
    testid: (o) => `${name === 'positionMode' ? 'position' : name}-${o}`,
    choose: (o) => ctrl.set(name, o as Settings[typeof name]),
  });
}

/** The form: level, colour, variant (and Chess960 position), rules, clock, start FEN, submit. */
export function newGameView(ctrl: NewGameCtrl): VNode {
  const s = ctrl.settings;
  const uid = ctrl.uid;
  const errorId = `${uid}-err`;
  const fenId = `${uid}-fen`;
  const numberId = `${uid}-pos`;
  return h(
    'form.new-game-form',
    {
      attrs: { 'data-testid': 'new-game-form', novalidate: true },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submit();
        },
      },
    },
    [
      group(ctrl, 'level', 'home.level', LEVELS, (l) => `level.${l}` as Key),
      group(ctrl, 'color', 'home.color', ['white', 'black', 'random'] as const, (c) => `color.${c}` as Key),
      group(ctrl, 'variant', 'home.variant', ['standard', 'chess960'] as const, (v) => `variant.${v}` as Key),
      h('div.chess960-options', { props: { hidden: s.variant !== 'chess960' } }, [
        group(ctrl, 'positionMode', 'home.position', ['random', 'chosen'] as const, (o) => (o === 'random' ? 'home.position.random' : 'home.position.chosen')),
        h('div.field', [
          h('label', { attrs: { for: numberId } }, t('home.position.number')),
          h('input', {
            attrs: { id: numberId, type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 3, 'aria-describedby': errorId, 'data-testid': 'position-number' },
            props: { value: s.positionNumber, disabled: s.positionMode !== 'chosen' },
            on: { input: (e: Event) => ctrl.set('positionNumber', (e.target as HTMLInputElement).value) },
          }),
        ]),
      ]),
      group(ctrl, 'rules', 'home.rules', ['plyyard', 'fide'] as const, (r) => `rules.${r}` as Key),
      h('p.muted.small.rules-help', t('home.rules.help')),
      group(ctrl, 'clock', 'home.clock', CLOCKS, () => 'home.clock.none', (c) => (c === 'none' ? null : c)),
      h('p.muted.small.clock-help', t('home.clock.help')),
      h('details.fen-options', [
        h('summary', { attrs: { 'data-testid': 'start-fen-toggle' } }, t('home.fen.toggle')),
        h('div.field.wide', [
          h('label', { attrs: { for: fenId } }, t('home.fen.label')),
          h('input', {
            attrs: {
              id: fenId,
              type: 'text',
              autocomplete: 'off',
              autocapitalize: 'off',
              spellcheck: 'false',
              placeholder: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
              'aria-describedby': `${fenId}-help ${errorId}`,
              'data-testid': 'start-fen',
            },
            props: { value: s.fen },
            on: { input: (e: Event) => ctrl.set('fen', (e.target as HTMLInputElement).value) },
          }),
          h('p.muted.small', { attrs: { id: `${fenId}-help` } }, t('home.fen.help')),
        ]),
      ]),
      h('p.form-error', { attrs: { id: errorId, role: 'alert', 'data-testid': 'new-game-error' } }, ctrl.error ? t(ctrl.error, ctrl.why ? { why: t(ctrl.why) } : undefined) : ''),
      h('button.primary.big', { attrs: { type: 'submit', 'data-testid': 'new-game-submit' }, props: { disabled: ctrl.submitting } }, t(ctrl.submitting ? 'home.creating' : 'home.newGame')),
    ],
  );
}
