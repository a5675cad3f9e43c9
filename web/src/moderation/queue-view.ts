//! The queue: one card per reported player, the most reported first,
//! with their reports, the evidence and the form that closes them.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { type Key, t } from '../i18n.js';
import { MOD_ACTIONS, type ReportGroup } from './api.js';
import { evidenceView, reportItem } from './evidence-view.js';
import { modFailure, modLoading, modNav } from './nav-view.js';
import type { ModQueueCtrl } from './queue-ctrl.js';

function closeForm(ctrl: ModQueueCtrl, username: string): VNode {
  const f = ctrl.form(username);
  const id = `mod-close-${username}`;
  return h(
    'form.mod-close',
    {
      attrs: { novalidate: true, 'data-testid': 'mod-close-form' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.close(username);
        },
      },
    },
    [
      h('label', { attrs: { for: `${id}-action` } }, t('mod.close.action')),
      h(
        'select',
        { attrs: { id: `${id}-action`, 'data-testid': 'mod-close-action' }, on: { change: (e: Event) => (f.action = (e.target as HTMLSelectElement).value as typeof f.action) } },
        (['none', ...MOD_ACTIONS] as const).map((a) => h('option', { attrs: { value: a }, props: { selected: a === f.action } }, t(`mod.action.${a}` as Key))),
      ),
      h('label', { attrs: { for: `${id}-reason` } }, t('mod.reason')),
      h('textarea', { attrs: { id: `${id}-reason`, rows: 2, maxlength: 1000, 'data-testid': 'mod-close-reason' }, props: { value: f.reason }, on: { input: (e: Event) => (f.reason = (e.target as HTMLTextAreaElement).value) } }),
      h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'mod-close-error' } }, f.error ?? ''),
      h('button.primary', { attrs: { type: 'submit', 'data-testid': 'mod-close-submit' }, props: { disabled: f.busy } }, t('mod.close.submit')),
    ],
  );
}

function group(ctrl: ModQueueCtrl, g: ReportGroup): VNode {
  return h('article.mod-group', { attrs: { 'data-testid': 'mod-report-group', 'data-username': g.username } }, [
    h('h2', [
      h('a', { attrs: { href: `/mod/user/${encodeURIComponent(g.username)}`, 'data-testid': 'mod-group-user' } }, g.username),
      ' ',
      h('a.muted.small', { attrs: { href: profilePath(g.username) } }, t('mod.profile')),
      ...g.marks.map((m) => h('span.badge', { attrs: { 'data-testid': 'mod-mark' } }, ` ${t(`mod.mark.${m}` as Key)}`)),
    ]),
    h('ul.mod-reports', g.reports.map(reportItem)),
    evidenceView(g.evidence),
    closeForm(ctrl, g.username),
  ]);
}

/** The page. */
export function modQueueView(ctrl: ModQueueCtrl): VNode {
  if (ctrl.error) return modFailure(ctrl.error);
  if (!ctrl.groups) return modLoading();
  return h('section.card.mod-page', { attrs: { 'data-testid': 'mod-queue-page' } }, [
    modNav('queue'),
    h('h1', t('mod.queue.title')),
    ctrl.groups.length === 0 ? h('p.muted', { attrs: { 'data-testid': 'mod-queue-empty' } }, t('mod.queue.empty')) : h('div.mod-groups', ctrl.groups.map((g) => group(ctrl, g))),
  ]);
}
