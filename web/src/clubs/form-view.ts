//! View pieces the clubs' forms share: the choice between an open and a
//! closed club, a labelled text area, and a club's badges.
import { h, type VNode } from 'snabbdom';
import { t, tp } from '../i18n.js';
import type { Club } from './api.js';

/** The open / closed choice, as two radio buttons; `prefix` names their ids and test ids (`{prefix}-open`, `{prefix}-closed`). */
export function accessChoice(prefix: string, open: boolean, set: (open: boolean) => void): VNode {
  const option = (value: boolean) => {
    const id = `${prefix}-${value ? 'open' : 'closed'}`;
    return h('label.club-access-option', { attrs: { for: id } }, [
      h('input', {
        attrs: { id, type: 'radio', name: `${prefix}-access`, value: value ? 'open' : 'closed', 'data-testid': id },
        props: { checked: open === value },
        on: { change: () => set(value) },
      }),
      h('span', t(value ? 'club.access.open' : 'club.access.closed')),
    ]);
  };
  return h('fieldset.choice-group.club-access', [h('legend', t('club.access')), option(true), option(false)]);
}

/** A labelled text area bound to a controller field. */
export function textArea(opts: { id: string; label: string; value: string; set: (v: string) => void; testid: string; maxlength: number; rows?: number; placeholder?: string; help?: string }): VNode {
  const helpId = `${opts.id}-help`;
  return h('div.field.wide', [
    h('label', { attrs: { for: opts.id } }, opts.label),
    h('textarea', {
      attrs: {
        id: opts.id,
        name: opts.id,
        rows: opts.rows ?? 4,
        maxlength: opts.maxlength,
        placeholder: opts.placeholder ?? '',
        'aria-describedby': opts.help ? helpId : false,
        'data-testid': opts.testid,
      },
      props: { value: opts.value },
      on: { input: (e: Event) => opts.set((e.target as HTMLTextAreaElement).value) },
    }),
    opts.help ? h('p.muted.small', { attrs: { id: helpId } }, opts.help) : null,
  ]);
}

/** A club's number of members and whether it is open, as small badges. */
export function clubFacts(club: Club): VNode[] {
  return [
    h('span.club-count', { attrs: { 'data-testid': 'club-members-count' } }, tp('clubs.members', club.nbMembers)),
    h(`span.club-badge.${club.open ? 'open' : 'closed'}`, { attrs: { 'data-testid': 'club-open', 'data-open': String(club.open) } }, t(club.open ? 'club.open' : 'club.closed')),
  ];
}
