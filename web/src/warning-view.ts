//! The warning banner: the moderators' message and "I understand".
import { h, type VNode } from 'snabbdom';
import { t } from './i18n.js';
import type { WarningCtrl } from './warning.js';

/** The banner, or nothing without an unread warning. */
export function warningView(ctrl: WarningCtrl): VNode | null {
  const w = ctrl.warning;
  if (!w) return null;
  return h('section.card.mod-warning', { attrs: { role: 'alert', 'data-testid': 'mod-warning' } }, [
    h('h2', t('warning.title')),
    h('p.mod-why', { attrs: { 'data-testid': 'mod-warning-text' } }, w.text),
    h('button.primary', { attrs: { type: 'button', 'data-testid': 'mod-warning-ack' }, on: { click: () => ctrl.acknowledge() } }, t('warning.ack')),
  ]);
}
