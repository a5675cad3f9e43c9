//! The Multiplayer page as a function of its controller: the quick-pairing
//! grid, open a table (or log in first), the live lobby, and joining by code.
import { h, type VNode } from 'snabbdom';
import type { Seek, Table } from '../api.js';
import { choiceGroup } from '../choices.js';
import { type Key, t, tp } from '../i18n.js';
import { authPath } from '../route.js';
import { INCREMENT, MINUTES, PRESETS, parseTimeControl, ratingLabel, sameName, tcLabel } from '../tables.js';
import type { MultiplayerCtrl, TableSettings } from './ctrl.js';
import { CELLS, type Cell, cellId, waitingFor } from './quick.js';

function quickButton(ctrl: MultiplayerCtrl, cell: Cell): VNode {
  const id = cellId(cell);
  const waiting = ctrl.seeking === id;
  const others = waitingFor(ctrl.seeks, cell, ctrl.quickRated, ctrl.ctx.account()?.username);
  const speed = t(`speed.${cell.speed}` as Key);
  const kind = cell.variant === 'chess960' ? `${t('variant.chess960')} · ${speed}` : speed;
  return h(
    'button.quick-cell',
    {
      key: id,
      class: { waiting },
      attrs: {
        type: 'button',
        'data-testid': `quick-${id}`,
        'aria-pressed': String(waiting),
        title: waiting ? t('quick.cancel') : t('multiplayer.form.tcTitle', { minutes: cell.minutes, increment: cell.increment }),
      },
      on: { click: () => ctrl.quick(cell) },
    },
    [
      h('span.quick-tc', tcLabel(cell)),
      h('span.quick-kind', kind),
      waiting
        ? h('span.quick-status', { attrs: { 'data-testid': 'quick-waiting' } }, t('quick.waiting'))
        : h('span.quick-status.muted', others > 0 ? tp('quick.others', others) : '\u00a0'),
    ],
  );
}

function quickCard(ctrl: MultiplayerCtrl): VNode {
  const account = ctrl.ctx.account();
  return h('section.card.quick-card', { attrs: { 'aria-labelledby': 'quick-title', 'data-testid': 'quick' } }, [
    h('h2', { attrs: { id: 'quick-title' } }, t('quick.title')),
    h('p.muted', t('quick.intro')),
    account
      ? h('div.quick-body', [
          h('div.check-field', [
            h('input', {
              attrs: { id: 'quick-rated', type: 'checkbox', 'data-testid': 'quick-rated' },
              props: { checked: ctrl.quickRated },
              on: { change: (e: Event) => ctrl.setQuickRated((e.target as HTMLInputElement).checked) },
            }),
            h('label', { attrs: { for: 'quick-rated' } }, t('multiplayer.form.rated')),
          ]),
          h('div.quick-grid', CELLS.map((cell) => quickButton(ctrl, cell))),
          h('p.muted.small', { attrs: { role: 'status', 'data-testid': 'quick-hint' } }, ctrl.seeking ? t('quick.hint') : ''),
          h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'quick-error' } }, ctrl.quickError ?? ''),
        ])
      : loginFirst('/multiplayer', 'quick.loginFirst', 'quick-login'),
  ]);
}

function radios<K extends 'variant' | 'rules'>(ctrl: MultiplayerCtrl, name: K, legend: Key, options: ReadonlyArray<TableSettings[K]>, label: (o: TableSettings[K]) => Key): VNode {
  return choiceGroup({
    legend,
    name: `table-${name}`,
    options,
    current: ctrl.settings[name],
    label,
    testid: (o) => `table-${name}-${o}`,
    choose: (o) => ctrl.set(name, o),
  });
}

function numberField(ctrl: MultiplayerCtrl, key: 'minutes' | 'increment', label: string, range: { min: number; max: number }): VNode {
  const id = `table-${key}`;
  return h('div.field.tc-field', [
    h('label', { attrs: { for: id } }, label),
    h('input', {
      attrs: { id, type: 'number', inputmode: key === 'minutes' ? 'decimal' : 'numeric', min: range.min, max: range.max, step: key === 'minutes' ? 'any' : 1, 'aria-describedby': 'open-table-error', 'data-testid': id },
      props: { value: ctrl.settings[key] },
      on: { input: (e: Event) => ctrl.set(key, (e.target as HTMLInputElement).value) },
    }),
  ]);
}

function checkbox(ctrl: MultiplayerCtrl, key: 'rated' | 'private', label: string, help: string): VNode {
  const id = `table-${key}`;
  return h('div.check-field', [
    h('input', {
      attrs: { id, type: 'checkbox', 'aria-describedby': `${id}-help`, 'data-testid': id },
      props: { checked: ctrl.settings[key] },
      on: { change: (e: Event) => ctrl.set(key, (e.target as HTMLInputElement).checked) },
    }),
    h('label', { attrs: { for: id } }, label),
    h('p.muted.small', { attrs: { id: `${id}-help` } }, help),
  ]);
}

function openForm(ctrl: MultiplayerCtrl): VNode {
  const s = ctrl.settings;
  const chosen = parseTimeControl(s.minutes, s.increment);
  return h(
    'form.open-table-form',
    {
      attrs: { 'data-testid': 'open-table-form', novalidate: true },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submit();
        },
      },
    },
    [
      radios(ctrl, 'variant', 'home.variant', ['standard', 'chess960'], (v) => `variant.${v}` as Key),
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
                attrs: { type: 'button', 'aria-pressed': String(on), 'data-testid': `tc-${tcLabel(tc)}`, title: t('multiplayer.form.tcTitle', { minutes: tc.minutes, increment: tc.increment }) },
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
      radios(ctrl, 'rules', 'home.rules', ['plyyard', 'fide'], (r) => `rules.${r}` as Key),
      h('p.muted.small.rules-help', t('home.rules.help')),
      checkbox(ctrl, 'rated', t('multiplayer.form.rated'), t('multiplayer.form.rated.help')),
      checkbox(ctrl, 'private', t('multiplayer.form.private'), t('multiplayer.form.private.help')),
      h('p.form-error', { attrs: { id: 'open-table-error', role: 'alert', 'data-testid': 'open-table-error' } }, ctrl.formError ?? ''),
      h('button.primary.big', { attrs: { type: 'submit', 'data-testid': 'open-table-submit' }, props: { disabled: ctrl.submitting } }, t(ctrl.submitting ? 'multiplayer.form.opening' : 'multiplayer.form.submit')),
    ],
  );
}

/** An invitation to sign up or log in, coming back to `path` afterwards. */
export function loginFirst(path: string, text: Key, testid: string): VNode {
  return h('div.login-first', { attrs: { 'data-testid': testid } }, [
    h('p', t(text)),
    h('p.login-links', [
      h('a.button.primary', { attrs: { href: authPath('signup', path), 'data-testid': `${testid}-signup` } }, t('nav.signup')),
      h('a.button', { attrs: { href: authPath('login', path), 'data-testid': `${testid}-login` } }, t('nav.login')),
    ]),
  ]);
}

/** A table's settings in words: ["5+3", "Blitz", "Standard chess", "FIDE rules", "Rated"]. */
export function tableParts(table: Pick<Table, 'minutes' | 'increment' | 'speed' | 'variant' | 'rules' | 'rated'>): string[] {
  const speed = table.speed === 'bullet' || table.speed === 'blitz' || table.speed === 'rapid' || table.speed === 'classical' ? t(`speed.${table.speed}` as Key) : null;
  return [tcLabel(table), speed, t(`variant.${table.variant}` as Key), t(`rules.${table.rules}` as Key), t(table.rated ? 'multiplayer.rated' : 'multiplayer.casual')].filter(
    (p): p is string => !!p,
  );
}

function lobbyItem(ctrl: MultiplayerCtrl, table: Table): VNode {
  const mine = ctrl.isMine(table);
  return h('li', { key: table.code }, [
    h(
      'button.lobby-item',
      {
        class: { mine },
        attrs: {
          type: 'button',
          'data-testid': 'lobby-table',
          'data-code': table.code,
          'aria-busy': ctrl.sitting === table.code ? 'true' : 'false',
          title: mine ? t('multiplayer.lobby.yours') : t('multiplayer.lobby.sit', { name: table.host.name }),
        },
        props: { disabled: ctrl.sitting !== null },
        on: { click: () => ctrl.sit(table) },
      },
      [
        h('span.lobby-host', [h('strong', table.host.name), h('span.rating', ratingLabel(table.host))]),
        h('span.lobby-tc', tcLabel(table)),
        h('span.lobby-details.muted', tableParts(table).slice(1).join(' · ')),
        h('span.lobby-action', mine ? t('multiplayer.lobby.yours') : t('multiplayer.lobby.sitShort')),
      ],
    ),
  ]);
}

/** A player waiting in quick pairing: their name, rating and game; one's own is marked, another's is taken up with a click. */
function seekItem(ctrl: MultiplayerCtrl, seek: Seek): VNode {
  const mine = sameName(seek.name, ctrl.ctx.account()?.username);
  const parts = tableParts({ ...seek, rules: 'fide' }).filter((_, i) => i !== 3);
  return h('li', { key: `seek-${seek.id}` }, [
    h(
      'button.lobby-item.lobby-seek',
      {
        class: { mine },
        attrs: { type: 'button', 'data-testid': 'lobby-seek', 'data-name': seek.name, title: mine ? t('multiplayer.seek.yours') : t('multiplayer.seek.play', { name: seek.name }) },
        props: { disabled: mine || !ctrl.ctx.account() },
        on: { click: () => ctrl.playSeek(seek) },
      },
      [
        h('span.lobby-host', [h('strong', seek.name), h('span.rating', ratingLabel(seek))]),
        h('span.lobby-tc', parts[0] ?? ''),
        h('span.lobby-details.muted', parts.slice(1).join(' · ')),
        h('span.lobby-action', mine ? t('multiplayer.seek.yoursShort') : t('multiplayer.seek.playShort')),
      ],
    ),
  ]);
}

/** The players waiting in quick pairing (none: nothing shown). */
function seeksList(ctrl: MultiplayerCtrl): VNode | null {
  if (ctrl.seeks.length === 0) return null;
  return h('div.lobby-seeks', { attrs: { 'data-testid': 'lobby-seeks' } }, [h('h3', t('multiplayer.seek.title')), h('ul.lobby-list', ctrl.seeks.map((s) => seekItem(ctrl, s)))]);
}

function lobby(ctrl: MultiplayerCtrl): VNode {
  let body: VNode;
  if (ctrl.lobbyFailed) body = h('p.muted', t('error.network'));
  else if (ctrl.lobby === null) body = h('p.muted', { attrs: { 'aria-busy': 'true' } }, '…');
  else if (ctrl.lobby.length === 0) body = h('p.muted', { attrs: { 'data-testid': 'lobby-empty' } }, t('multiplayer.lobby.empty'));
  else body = h('ul.lobby-list', ctrl.lobby.map((table) => lobbyItem(ctrl, table)));
  return h('div.lobby', { attrs: { 'data-testid': 'lobby', 'aria-live': 'polite' } }, [
    body,
    seeksList(ctrl),
    h('p.connection', { attrs: { role: 'status' }, props: { hidden: ctrl.lobbyConnected } }, t('conn.reconnecting')),
    h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'lobby-error' } }, ctrl.lobbyError ?? ''),
  ]);
}

function joinForm(ctrl: MultiplayerCtrl): VNode {
  return h(
    'form.join-form',
    {
      attrs: { 'data-testid': 'join-form', novalidate: true },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.join();
        },
      },
    },
    [
      h('label', { attrs: { for: 'join-code' } }, t('multiplayer.join.label')),
      h('div.input-row', [
        h('input.code-input', {
          attrs: {
            id: 'join-code',
            type: 'text',
            autocomplete: 'off',
            autocapitalize: 'characters',
            spellcheck: 'false',
            maxlength: 64,
            placeholder: 'K7M3QX',
            'aria-describedby': 'join-help join-error',
            'data-testid': 'join-code',
          },
          props: { value: ctrl.joinCode },
          on: { input: (e: Event) => ctrl.setJoinCode((e.target as HTMLInputElement).value) },
        }),
        h('button.primary', { attrs: { type: 'submit', 'data-testid': 'join-submit' }, props: { disabled: ctrl.joining } }, t('multiplayer.join.submit')),
      ]),
      h('p.muted.small', { attrs: { id: 'join-help' } }, t('multiplayer.join.help')),
      h('p.form-error', { attrs: { id: 'join-error', role: 'alert', 'data-testid': 'join-error' } }, ctrl.joinError ?? ''),
    ],
  );
}

/** The whole Multiplayer page. */
export function multiplayerView(ctrl: MultiplayerCtrl): VNode {
  const account = ctrl.ctx.account();
  return h('div.multiplayer', [
    quickCard(ctrl),
    h('section.card.open-card', { attrs: { 'aria-labelledby': 'open-title' } }, [
      h('h1', { attrs: { id: 'open-title' } }, t('multiplayer.title')),
      h('p.intro', t('multiplayer.intro')),
      h('h2', t('multiplayer.open.title')),
      account ? openForm(ctrl) : loginFirst('/multiplayer', 'multiplayer.loginFirst', 'multiplayer-login'),
    ]),
    h('div.multiplayer-side', [
      h('section.card.lobby-card', { attrs: { 'aria-labelledby': 'lobby-title' } }, [h('h2', { attrs: { id: 'lobby-title' } }, t('multiplayer.lobby.title')), lobby(ctrl)]),
      h('section.card.join-card', { attrs: { 'aria-labelledby': 'join-title' } }, [h('h2', { attrs: { id: 'join-title' } }, t('multiplayer.join.title')), joinForm(ctrl)]),
    ]),
  ]);
}
