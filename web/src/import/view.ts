//! The import page as a function of its controller: the PGN box, a file
//! picker, the importer's error as it words it, and the games stored.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import type { ImportCtrl } from './ctrl.js';

/** The whole page. */
export function importView(ctrl: ImportCtrl): VNode {
  return h('section.card.import-page', [
    h('h1', t('import.title')),
    h('p.muted', t('import.intro')),
    h(
      'form.import-form',
      {
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            void ctrl.submit();
          },
        },
      },
      [
        h('label', { attrs: { for: 'import-pgn' } }, t('import.paste')),
        h('textarea#import-pgn', {
          attrs: { rows: 12, spellcheck: 'false', 'data-testid': 'import-pgn' },
          props: { value: ctrl.pgn },
          on: { input: (e: Event) => (ctrl.pgn = (e.target as HTMLTextAreaElement).value) },
        }),
        h('label', { attrs: { for: 'import-file' } }, t('import.file')),
        h('input#import-file', {
          attrs: { type: 'file', accept: '.pgn,application/x-chess-pgn,text/plain', 'data-testid': 'import-file' },
          on: {
            change: (e: Event) => {
              const f = (e.target as HTMLInputElement).files?.[0];
              if (f) void ctrl.readFile(f);
            },
          },
        }),
        ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'import-error' } }, ctrl.error) : h('span'),
        h('button.button.primary', { attrs: { type: 'submit', disabled: ctrl.sending, 'data-testid': 'import-submit' } }, t('import.submit')),
      ],
    ),
    ctrl.games.length > 0
      ? h('div.import-games', [
          h('h2', t('import.done', { count: ctrl.games.length })),
          h(
            'ul',
            ctrl.games.map((g) =>
              h('li', [
                h('a', { attrs: { href: `/game/${encodeURIComponent(g.id)}/review`, 'data-testid': 'import-game' } }, `${g.white} – ${g.black} ${g.result}`),
              ]),
            ),
          ),
        ])
      : h('span'),
  ]);
}
