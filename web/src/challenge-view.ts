//! The incoming-challenges banner's view: one row per challenge received
//! (who, their rating, the terms), accept, a decline reason and decline.
import { h, type VNode } from 'snabbdom';
import type { Challenge } from './api.js';
import type { IncomingCtrl } from './challenge-banner.js';
import { challengeTerms, choiceKey, DECLINE_CHOICES, type DeclineChoice } from './challenges.js';
import { t } from './i18n.js';

function row(ctrl: IncomingCtrl, c: Challenge): VNode {
  const who = c.challenger;
  const rating = who.rating === undefined ? '' : ` (${who.rating}${who.provisional ? '?' : ''})`;
  const busy = ctrl.busy !== null;
  const selectId = `decline-reason-${c.id}`;
  return h('li.challenge-row', { key: c.id, attrs: { 'data-testid': 'incoming-challenge', 'data-id': c.id } }, [
    h('p.challenge-who', [
      h('strong', { attrs: { 'data-testid': 'incoming-challenger' } }, `${who.title ? `${who.title} ` : ''}${who.name}${rating}`),
      ' ',
      t('challenge.incoming.challengesYou'),
    ]),
    h('p.challenge-terms.muted.small', { attrs: { 'data-testid': 'incoming-terms' } }, challengeTerms(c).join(' · ')),
    h('div.challenge-actions', [
      h('button.primary.small', { attrs: { type: 'button', 'data-testid': 'challenge-accept' }, props: { disabled: busy }, on: { click: () => ctrl.accept(c) } }, t('challenge.incoming.accept')),
      h('label.visually-hidden', { attrs: { for: selectId } }, t('challenge.incoming.reason')),
      h(
        'select.challenge-reason',
        {
          attrs: { id: selectId, 'data-testid': 'challenge-decline-reason' },
          props: { value: ctrl.reasons[c.id] ?? 'generic', disabled: busy },
          on: { change: (e: Event) => ctrl.setReason(c.id, (e.target as HTMLSelectElement).value as DeclineChoice) },
        },
        DECLINE_CHOICES.map((r) => h('option', { attrs: { value: r }, props: { selected: r === (ctrl.reasons[c.id] ?? 'generic') } }, t(choiceKey(r)))),
      ),
      h('button.small', { attrs: { type: 'button', 'data-testid': 'challenge-decline' }, props: { disabled: busy }, on: { click: () => ctrl.decline(c) } }, t('challenge.incoming.decline')),
    ]),
  ]);
}

/** The banner (an empty placeholder when there is nothing to show). */
export function incomingView(ctrl: IncomingCtrl): VNode {
  if (ctrl.list.length === 0 && !ctrl.error) return h('div.challenge-banner-empty');
  return h('aside.challenge-banner', { attrs: { 'aria-label': t('challenge.incoming.title'), 'data-testid': 'incoming-challenges' } }, [
    h('div.challenge-banner-inner', [
      ctrl.list.length > 0 ? h('ul.challenge-list', ctrl.list.map((c) => row(ctrl, c))) : null,
      ctrl.error
        ? h('p.form-error.challenge-error', { attrs: { role: 'alert', 'data-testid': 'incoming-error' } }, [
            ctrl.error,
            ' ',
            h('button.link-button', { attrs: { type: 'button', 'data-testid': 'incoming-error-dismiss' }, on: { click: () => ctrl.dismiss() } }, t('challenge.incoming.dismiss')),
          ])
        : null,
    ]),
  ]);
}
