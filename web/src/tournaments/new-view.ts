//! The form that creates an Arena: name, clock, length, start (in some
//! minutes or at a time), rated, berserk, streaks, chat, description,
//! password, a club the creator leads, rating conditions; the error line.
import { h, type VNode } from 'snabbdom';
import { formError } from '../forms.js';
import { type Key, t } from '../i18n.js';
import { authPath } from '../route.js';
import type { ArenaForm } from './model.js';
import type { ArenaNewCtrl } from './new-ctrl.js';

type TextField = 'name' | 'clockMinutes' | 'increment' | 'minutes' | 'waitMinutes' | 'startAt' | 'password' | 'minRating' | 'maxRating' | 'minRatedGames';

function input(ctrl: ArenaNewCtrl, k: TextField, label: Key, type = 'text', help?: Key): VNode {
  const id = `arena-${k}`;
  return h('div.field', [
    h('label', { attrs: { for: id } }, t(label)),
    h('input', {
      attrs: { id, name: id, type, autocomplete: 'off', 'data-testid': id, inputmode: type === 'text' && k !== 'name' && k !== 'password' ? 'numeric' : false },
      props: { value: ctrl.form[k] },
      on: { input: (e: Event) => ctrl.set(k, (e.target as HTMLInputElement).value) },
    }),
    help ? h('p.muted.small', t(help)) : null,
  ]);
}

function check(ctrl: ArenaNewCtrl, k: 'rated' | 'berserkable' | 'streakable' | 'hasChat', label: Key): VNode {
  const id = `arena-${k}`;
  return h('label.checkbox', { attrs: { for: id } }, [
    h('input', { attrs: { id, type: 'checkbox', 'data-testid': id }, props: { checked: ctrl.form[k] }, on: { change: (e: Event) => ctrl.set(k, (e.target as HTMLInputElement).checked) } }),
    ' ',
    t(label),
  ]);
}

function start(ctrl: ArenaNewCtrl): VNode {
  const option = (mode: ArenaForm['startMode'], label: Key) =>
    h('label', [
      h('input', { attrs: { type: 'radio', name: 'arena-start', 'data-testid': `arena-start-${mode}` }, props: { checked: ctrl.form.startMode === mode }, on: { change: () => ctrl.set('startMode', mode) } }),
      ' ',
      t(label),
    ]);
  return h('fieldset.choice-group', [
    h('legend', t('arena.form.start')),
    option('wait', 'arena.form.start.wait'),
    option('at', 'arena.form.start.at'),
    ctrl.form.startMode === 'wait' ? input(ctrl, 'waitMinutes', 'arena.form.waitMinutes') : input(ctrl, 'startAt', 'arena.form.startAt', 'datetime-local'),
  ]);
}

function club(ctrl: ArenaNewCtrl): VNode | null {
  if (ctrl.clubs.length === 0) return null;
  return h('div.field', [
    h('label', { attrs: { for: 'arena-club' } }, t('arena.form.club')),
    h(
      'select#arena-club',
      { attrs: { 'data-testid': 'arena-club' }, on: { change: (e: Event) => ctrl.set('club', (e.target as HTMLSelectElement).value) } },
      [h('option', { attrs: { value: '' }, props: { selected: ctrl.form.club === '' } }, t('arena.form.club.none')), ...ctrl.clubs.map((c) => h('option', { attrs: { value: c.id }, props: { selected: ctrl.form.club === c.id } }, c.name))],
    ),
  ]);
}

/** The page. */
export function arenaNewView(ctrl: ArenaNewCtrl): VNode {
  if (!ctrl.ctx.account()) {
    return h('section.card.auth-card', { attrs: { 'data-testid': 'arena-new-page' } }, [
      h('h1', t('arena.new.title')),
      h('p', [h('a', { attrs: { href: authPath('login', '/tournament/new'), 'data-testid': 'arena-new-login' } }, t('arena.needLogin'))]),
    ]);
  }
  return h('div.account-page', [
    h('section.card.auth-card', { attrs: { 'data-testid': 'arena-new-page' } }, [
      h('h1', t('arena.new.title')),
      h(
        'form.auth-form.arena-form',
        {
          attrs: { novalidate: true, 'data-testid': 'arena-new-form' },
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              ctrl.submit();
            },
          },
        },
        [
          input(ctrl, 'name', 'arena.form.name', 'text', 'arena.form.name.help'),
          input(ctrl, 'clockMinutes', 'arena.form.clock'),
          input(ctrl, 'increment', 'arena.form.increment'),
          input(ctrl, 'minutes', 'arena.form.minutes', 'text', 'arena.form.minutes.help'),
          start(ctrl),
          check(ctrl, 'rated', 'arena.form.rated'),
          check(ctrl, 'berserkable', 'arena.form.berserkable'),
          check(ctrl, 'streakable', 'arena.form.streakable'),
          check(ctrl, 'hasChat', 'arena.form.hasChat'),
          h('div.field.wide', [
            h('label', { attrs: { for: 'arena-description' } }, t('arena.form.description')),
            h('textarea#arena-description', {
              attrs: { rows: 3, maxlength: 4000, 'data-testid': 'arena-description' },
              props: { value: ctrl.form.description },
              on: { input: (e: Event) => ctrl.set('description', (e.target as HTMLTextAreaElement).value) },
            }),
          ]),
          input(ctrl, 'password', 'arena.form.password', 'text', 'arena.form.password.help'),
          club(ctrl),
          input(ctrl, 'minRating', 'arena.form.minRating'),
          input(ctrl, 'maxRating', 'arena.form.maxRating'),
          input(ctrl, 'minRatedGames', 'arena.form.minRatedGames'),
          formError(ctrl.error, 'arena-new-error'),
          h('button.primary', { attrs: { type: 'submit', 'data-testid': 'arena-new-submit' }, props: { disabled: ctrl.busy } }, t('arena.new.submit')),
        ],
      ),
    ]),
  ]);
}
