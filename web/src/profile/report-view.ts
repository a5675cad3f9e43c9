//! The profile's report button and form: a reason among four and a text
//! for the moderators.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { REASON_KEYS, REPORT_REASONS } from '../moderation/api.js';
import type { ReportCtrl } from './report.js';

/** The report button, its form when open, and the thanks once sent. */
export function reportView(ctrl: ReportCtrl): VNode {
  if (ctrl.sent) return h('p.notice', { attrs: { role: 'status', 'data-testid': 'report-sent' } }, t('report.sent'));
  if (!ctrl.open) {
    return h('p', [h('button.link-button', { attrs: { type: 'button', 'data-testid': 'report-open' }, on: { click: () => ctrl.toggle() } }, t('report.open'))]);
  }
  return h(
    'form.report-form',
    {
      attrs: { novalidate: true, 'data-testid': 'report-form' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.submit();
        },
      },
    },
    [
      h('h2', t('report.title', { name: ctrl.username })),
      h('div.field.wide', [
        h('label', { attrs: { for: 'report-reason' } }, t('report.reason')),
        h(
          'select',
          { attrs: { id: 'report-reason', 'data-testid': 'report-reason' }, on: { change: (e: Event) => (ctrl.reason = (e.target as HTMLSelectElement).value as typeof ctrl.reason) } },
          REPORT_REASONS.map((r) => h('option', { attrs: { value: r }, props: { selected: r === ctrl.reason } }, t(REASON_KEYS[r]))),
        ),
      ]),
      h('div.field.wide', [
        h('label', { attrs: { for: 'report-text' } }, t('report.text')),
        h('textarea', { attrs: { id: 'report-text', rows: 4, maxlength: 3000, 'data-testid': 'report-text' }, props: { value: ctrl.text }, on: { input: (e: Event) => (ctrl.text = (e.target as HTMLTextAreaElement).value) } }),
      ]),
      h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'report-error' } }, ctrl.error ?? ''),
      h('div.buttons', [
        h('button.primary', { attrs: { type: 'submit', 'data-testid': 'report-submit' }, props: { disabled: ctrl.busy } }, t('report.submit')),
        h('button', { attrs: { type: 'button', 'data-testid': 'report-cancel' }, on: { click: () => ctrl.toggle() } }, t('report.cancel')),
      ]),
    ],
  );
}
