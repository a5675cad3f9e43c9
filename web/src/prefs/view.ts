//! The preferences page: a select for each choice and a box for each
//! switch.
import { h, type VNode } from 'snabbdom';
import { type Key, t } from '../i18n.js';
import { PREF_CHOICES, PREF_FLAGS, type Prefs } from '../prefs.js';
import type { PrefsCtrl } from './ctrl.js';

type ChoiceKey = keyof typeof PREF_CHOICES;

function choice(ctrl: PrefsCtrl, key: ChoiceKey): VNode {
  const id = `pref-${key}`;
  return h('div.field', [
    h('label', { attrs: { for: id } }, t(`prefs.${key}` as Key)),
    h(
      'select',
      { attrs: { id, 'data-testid': id }, on: { change: (e: Event) => ctrl.set(key, (e.target as HTMLSelectElement).value as Prefs[ChoiceKey]) } },
      PREF_CHOICES[key].map((v) => h('option', { attrs: { value: v }, props: { selected: ctrl.current[key] === v } }, t(`prefs.${key}.${v}` as Key))),
    ),
  ]);
}

function flag(ctrl: PrefsCtrl, key: (typeof PREF_FLAGS)[number]): VNode {
  const id = `pref-${key}`;
  return h('label.check', { attrs: { for: id } }, [
    h('input', { attrs: { id, type: 'checkbox', 'data-testid': id }, props: { checked: ctrl.current[key] }, on: { change: (e: Event) => ctrl.set(key, (e.target as HTMLInputElement).checked) } }),
    h('span', t(`prefs.${key}` as Key)),
  ]);
}

/** The whole page. */
export function prefsView(ctrl: PrefsCtrl): VNode {
  return h('section.card.prefs', { attrs: { 'data-testid': 'prefs' } }, [
    h('h1', t('prefs.title')),
    h('p.muted', t(ctrl.ctx.account() ? 'prefs.intro.account' : 'prefs.intro.browser')),
    h('div.pref-form', [...(Object.keys(PREF_CHOICES) as ChoiceKey[]).map((k) => choice(ctrl, k)), ...PREF_FLAGS.map((k) => flag(ctrl, k))]),
    h('p', { attrs: { role: 'status', 'data-testid': 'prefs-status' } }, ctrl.status === null ? '' : ctrl.status === 'saved' ? t('prefs.saved') : ctrl.status),
  ]);
}
