//! The profile's challenge section: the "Challenge" button, its form
//! (time control presets and custom minutes/increment, variant, rated,
//! colour), the wait with its cancel button, and why a challenge ended.
import { h, type VNode } from 'snabbdom';
import { choiceGroup } from '../choices.js';
import { type Key, t } from '../i18n.js';
import { INCREMENT, MINUTES, PRESETS, parseTimeControl, tcLabel } from '../tables.js';
import type { ChallengeCtrl } from './challenge.js';

function numberField(ctrl: ChallengeCtrl, key: 'minutes' | 'increment', label: string, range: { min: number; max: number }): VNode {
  const id = `challenge-${key}`;
  return h('div.field.tc-field', [
    h('label', { attrs: { for: id } }, label),
    h('input', {
      attrs: { id, type: 'number', inputmode: key === 'minutes' ? 'decimal' : 'numeric', min: range.min, max: range.max, step: key === 'minutes' ? 'any' : 1, 'aria-describedby': 'challenge-error', 'data-testid': id },
      props: { value: ctrl.settings[key] },
      on: { input: (e: Event) => ctrl.set(key, (e.target as HTMLInputElement).value) },
    }),
  ]);
}

function form(ctrl: ChallengeCtrl): VNode {
  const s = ctrl.settings;
  const chosen = parseTimeControl(s.minutes, s.increment);
  return h(
    'form.challenge-form',
    {
      attrs: { 'data-testid': 'challenge-form', novalidate: true },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submit();
        },
      },
    },
    [
      h('fieldset.choice-group', [
        h('legend', t('multiplayer.form.timeControl')),
        h(
          'div.chips.tc-presets',
          PRESETS.map((tc) => {
            const on = chosen !== null && chosen.minutes === tc.minutes && chosen.increment === tc.increment;
            return h(
              'button.tc-preset',
              {
                class: { selected: on },
                attrs: { type: 'button', 'aria-pressed': String(on), 'data-testid': `challenge-tc-${tcLabel(tc)}`, title: t('multiplayer.form.tcTitle', { minutes: tc.minutes, increment: tc.increment }) },
                on: { click: () => ctrl.preset(tc) },
              },
              tcLabel(tc),
            );
          }),
        ),
        h('div.tc-custom', [
          numberField(ctrl, 'minutes', t('multiplayer.form.minutes', { min: MINUTES.min, max: MINUTES.max }), MINUTES),
          numberField(ctrl, 'increment', t('multiplayer.form.increment', { min: INCREMENT.min, max: INCREMENT.max }), INCREMENT),
        ]),
      ]),
      choiceGroup({
        legend: 'home.variant',
        name: 'challenge-variant',
        options: ['standard', 'chess960'] as const,
        current: s.variant,
        label: (v) => `variant.${v}` as Key,
        testid: (v) => `challenge-variant-${v}`,
        choose: (v) => ctrl.set('variant', v),
      }),
      choiceGroup({
        legend: 'home.color',
        name: 'challenge-color',
        options: ['random', 'white', 'black'] as const,
        current: s.color,
        label: (c) => `color.${c}` as Key,
        testid: (c) => `challenge-color-${c}`,
        choose: (c) => ctrl.set('color', c),
      }),
      h('div.check-field', [
        h('input', {
          attrs: { id: 'challenge-rated', type: 'checkbox', 'data-testid': 'challenge-rated' },
          props: { checked: s.rated },
          on: { change: (e: Event) => ctrl.set('rated', (e.target as HTMLInputElement).checked) },
        }),
        h('label', { attrs: { for: 'challenge-rated' } }, t('multiplayer.form.rated')),
      ]),
      h('p.form-error', { attrs: { id: 'challenge-error', role: 'alert', 'data-testid': 'challenge-error' } }, ctrl.error ?? ''),
      h('button.primary', { attrs: { type: 'submit', 'data-testid': 'challenge-submit' }, props: { disabled: ctrl.sending } }, t(ctrl.sending ? 'challenge.form.sending' : 'challenge.form.submit')),
    ],
  );
}

/** The challenge section for player `name`. */
export function challengeView(ctrl: ChallengeCtrl, name: string): VNode {
  if (ctrl.waiting) {
    return h('div.challenge-box', { attrs: { 'data-testid': 'challenge-waiting' } }, [
      h('p.challenge-waiting', { attrs: { role: 'status' } }, t('challenge.waiting', { name })),
      h('button', { attrs: { type: 'button', 'data-testid': 'challenge-cancel' }, props: { disabled: ctrl.sending }, on: { click: () => ctrl.cancel() } }, t('challenge.cancel')),
      ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'challenge-error' } }, ctrl.error) : null,
    ]);
  }
  return h('div.challenge-box', [
    h('button.primary', { attrs: { type: 'button', 'aria-expanded': String(ctrl.open), 'data-testid': 'challenge-open' }, on: { click: () => ctrl.toggle() } }, t('challenge.button')),
    ctrl.ended ? h('p.challenge-ended', { attrs: { role: 'status', 'data-testid': 'challenge-ended' } }, ctrl.ended) : null,
    ctrl.open ? form(ctrl) : null,
  ]);
}
