//! The form that creates a club: name, description, open or closed, and
//! the server's answer when it refuses (a log-in link when nobody is
//! logged in).
import { h, type VNode } from 'snabbdom';
import { field, formError } from '../forms.js';
import { t } from '../i18n.js';
import { authPath } from '../route.js';
import { accessChoice, textArea } from './form-view.js';
import type { ClubNewCtrl } from './new-ctrl.js';

/** The page. */
export function clubNewView(ctrl: ClubNewCtrl): VNode {
  if (!ctrl.ctx.account()) {
    return h('section.card.auth-card.club-new', { attrs: { 'data-testid': 'club-create-page' } }, [
      h('h1', t('clubs.new.title')),
      h('p', [h('a', { attrs: { href: authPath('login', '/team/new'), 'data-testid': 'club-create-login' } }, t('clubs.new.needLogin'))]),
    ]);
  }
  return h('div.account-page', [
    h('section.card.auth-card.club-new', { attrs: { 'data-testid': 'club-create-page' } }, [
      h('h1', t('clubs.new.title')),
      h(
        'form.auth-form',
        {
          attrs: { novalidate: true, 'data-testid': 'club-create-form' },
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              ctrl.submit();
            },
          },
        },
        [
          field({ id: 'club-create-name', label: t('clubs.new.name'), type: 'text', value: ctrl.name, set: (v) => (ctrl.name = v), autocomplete: 'off', testid: 'club-create-name', help: t('clubs.new.name.help') }),
          textArea({ id: 'club-create-description', label: t('clubs.new.description'), value: ctrl.description, set: (v) => (ctrl.description = v), testid: 'club-create-description', maxlength: 4000, help: t('clubs.new.description.help') }),
          accessChoice('club-create', ctrl.open, (open) => ctrl.setOpen(open)),
          formError(ctrl.error, 'club-create-error'),
          h('button.primary', { attrs: { type: 'submit', 'data-testid': 'club-create-submit' }, props: { disabled: ctrl.busy } }, t('clubs.new.submit')),
        ],
      ),
    ]),
  ]);
}
