//! A club's page: its name, whether it is open, its size, description and
//! leaders; the viewer's place in it (join, ask to join with a message,
//! request pending, quit); for leaders the requests to answer, the member
//! actions and the edit form; the members' chat; the latest members.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { formError } from '../forms.js';
import { lang, t } from '../i18n.js';
import { authPath, clubPath } from '../route.js';
import type { ClubMember, JoinRequest } from './api.js';
import { CLUB_CHAT_MAX, type ClubCtrl, MEMBERS_SHOWN } from './club-ctrl.js';
import { chatLineReport } from '../moderation/report-link.js';
import { arenaRow } from '../tournaments/list-view.js';
import { accessChoice, clubFacts, textArea } from './form-view.js';

function day(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat(lang(), { dateStyle: 'medium' }).format(d);
}

function userLink(name: string, testid?: string): VNode {
  return h('a.club-user', { attrs: { href: profilePath(name), ...(testid ? { 'data-testid': testid } : {}) } }, name);
}

function button(label: string, testid: string, ctrl: ClubCtrl, click: () => void, kind = ''): VNode {
  return h(`button${kind}`, { attrs: { type: 'button', 'data-testid': testid }, props: { disabled: ctrl.busy }, on: { click } }, label);
}

/** What the viewer may do about being a member: join, ask, wait, quit, or log in. */
function membership(ctrl: ClubCtrl): VNode {
  const club = ctrl.club!;
  if (!ctrl.me()) {
    return h('p.club-membership', [h('a', { attrs: { href: authPath('login', clubPath(club.id)), 'data-testid': 'club-login' } }, t('club.loginToJoin'))]);
  }
  if (club.joined) {
    return h('div.club-membership', { attrs: { 'data-testid': 'club-membership', 'data-state': 'member' } }, [
      h('p', t('club.member')),
      button(t('club.quit'), 'club-quit', ctrl, () => ctrl.quit()),
    ]);
  }
  if (club.requested) {
    return h('div.club-membership', { attrs: { 'data-testid': 'club-membership', 'data-state': 'requested' } }, [h('p', { attrs: { 'data-testid': 'club-requested' } }, t('club.requested'))]);
  }
  if (club.open || !ctrl.asking) {
    return h('div.club-membership', { attrs: { 'data-testid': 'club-membership', 'data-state': 'outside' } }, [
      button(t(club.open ? 'club.join' : 'club.ask'), 'club-join', ctrl, () => ctrl.join(), '.primary'),
      club.open ? null : h('p.muted.small', t('club.ask.help')),
    ]);
  }
  return h(
    'form.club-ask',
    {
      attrs: { novalidate: true, 'data-testid': 'club-ask-form' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.ask();
        },
      },
    },
    [
      textArea({ id: 'club-message', label: t('club.message'), value: ctrl.message, set: (v) => (ctrl.message = v), testid: 'club-message', maxlength: 2000, rows: 3, placeholder: t('club.message.placeholder') }),
      h('div.actions', [
        h('button.primary', { attrs: { type: 'submit', 'data-testid': 'club-ask-send' }, props: { disabled: ctrl.busy } }, t('club.message.send')),
        button(t('club.cancel'), 'club-ask-cancel', ctrl, () => ctrl.cancelAsk()),
      ]),
    ],
  );
}

function requestItem(ctrl: ClubCtrl, r: JoinRequest): VNode {
  return h('li.club-request', { attrs: { 'data-testid': 'club-request', 'data-user': r.user.id } }, [
    h('div.club-request-head', [userLink(r.user.username), h('span.muted.small', day(r.request.date))]),
    h('p.club-request-message', { attrs: { 'data-testid': 'club-request-message' } }, r.request.message),
    h('div.actions', [
      button(t('club.accept'), 'club-accept', ctrl, () => ctrl.answer(r.user.id, true), '.primary'),
      button(t('club.decline'), 'club-decline', ctrl, () => ctrl.answer(r.user.id, false)),
    ]),
  ]);
}

function requests(ctrl: ClubCtrl): VNode | null {
  if (!ctrl.isLeader() || ctrl.requests === null) return null;
  return h('section.card.club-requests', { attrs: { 'aria-labelledby': 'club-requests-title', 'data-testid': 'club-requests' } }, [
    h('h2', { attrs: { id: 'club-requests-title' } }, t('club.requests')),
    ctrl.requests.length === 0 ? h('p.muted', { attrs: { 'data-testid': 'club-requests-none' } }, t('club.requests.none')) : h('ul.club-request-list', ctrl.requests.map((r) => requestItem(ctrl, r))),
  ]);
}

function memberItem(ctrl: ClubCtrl, m: ClubMember): VNode {
  const leader = ctrl.memberLeads(m.id);
  const club = ctrl.club!;
  const actions: VNode[] = [];
  if (ctrl.isLeader()) {
    if (!leader) {
      actions.push(button(t('club.makeLeader'), 'club-make-leader', ctrl, () => ctrl.setLeader(m.id, true)));
      actions.push(button(t('club.kick'), 'club-kick', ctrl, () => ctrl.kick(m.id), '.danger'));
    } else if (club.leaders.length > 1) {
      actions.push(button(t('club.removeLeader'), 'club-remove-leader', ctrl, () => ctrl.setLeader(m.id, false)));
    }
  }
  return h('li.club-member', { attrs: { 'data-testid': 'club-member', 'data-user': m.id } }, [
    h('span.club-member-name', [userLink(m.name), leader ? h('span.club-leader-badge', { attrs: { 'data-testid': 'club-leader-badge' } }, t('club.leader')) : null]),
    h('span.muted.small', t('club.joinedOn', { date: day(m.joinedTeamAt) })),
    actions.length ? h('span.club-member-actions', actions) : null,
  ]);
}

function members(ctrl: ClubCtrl): VNode {
  const list = ctrl.members ?? [];
  const club = ctrl.club!;
  return h('section.card.club-members', { attrs: { 'aria-labelledby': 'club-members-title', 'data-testid': 'club-members' } }, [
    h('h2', { attrs: { id: 'club-members-title' } }, t('club.members')),
    club.nbMembers > list.length && list.length >= MEMBERS_SHOWN ? h('p.muted.small', t('club.members.latest', { n: MEMBERS_SHOWN })) : null,
    h('ul.club-member-list', list.map((m) => memberItem(ctrl, m))),
  ]);
}

function chat(ctrl: ClubCtrl): VNode | null {
  if (!ctrl.club?.joined || ctrl.chat === null) return null;
  const lines = ctrl.chat.map((l) =>
    // Text children only: snabbdom makes text nodes, so markup in a line is shown, never run.
    h('li.chat-line', { attrs: { 'data-testid': 'club-chat-line' } }, [
      h('strong.chat-user', l.user),
      ' ',
      h('span.chat-text', l.text),
      chatLineReport(l.user, l.text, clubPath(ctrl.id), ctrl.me(), 'club-chat-report'),
    ]),
  );
  return h('section.card.club-chat.chat', { attrs: { 'aria-labelledby': 'club-chat-title', 'data-testid': 'club-chat' } }, [
    h('h2', { attrs: { id: 'club-chat-title' } }, t('club.chat')),
    h(
      'ol.chat-lines',
      {
        attrs: { 'aria-live': 'polite', 'data-testid': 'club-chat-lines' },
        hook: {
          postpatch: (_old, vnode) => {
            const el = vnode.elm as HTMLElement;
            el.scrollTop = el.scrollHeight;
          },
        },
      },
      lines.length ? lines : [h('li.muted.small', t('chat.empty'))],
    ),
    h(
      'form.chat-form',
      {
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            ctrl.say();
          },
        },
      },
      [
        h('label.visually-hidden', { attrs: { for: 'club-chat-input' } }, t('club.chat.say')),
        h('input', {
          attrs: { id: 'club-chat-input', type: 'text', maxlength: CLUB_CHAT_MAX, autocomplete: 'off', placeholder: t('club.chat.say'), 'data-testid': 'club-chat-input' },
          props: { value: ctrl.chatInput, readOnly: ctrl.sending },
          on: { input: (e: Event) => ctrl.setChatInput((e.target as HTMLInputElement).value) },
        }),
        h('button', { attrs: { type: 'submit', 'data-testid': 'club-chat-send' }, props: { disabled: ctrl.sending } }, t('chat.send')),
      ],
    ),
    formError(ctrl.chatError, 'club-chat-error'),
  ]);
}

function editForm(ctrl: ClubCtrl): VNode {
  return h(
    'form.auth-form.club-edit',
    {
      attrs: { novalidate: true, 'data-testid': 'club-edit-form' },
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          ctrl.saveEdit();
        },
      },
    },
    [
      textArea({ id: 'club-edit-description', label: t('clubs.new.description'), value: ctrl.editDescription, set: (v) => (ctrl.editDescription = v), testid: 'club-edit-description', maxlength: 4000, rows: 5 }),
      accessChoice('club-edit', ctrl.editOpen, (open) => ctrl.setEditOpen(open)),
      h('div.actions', [
        h('button.primary', { attrs: { type: 'submit', 'data-testid': 'club-edit-save' }, props: { disabled: ctrl.busy } }, t('club.edit.save')),
        button(t('club.cancel'), 'club-edit-cancel', ctrl, () => ctrl.cancelEdit()),
      ]),
    ],
  );
}

/** The club's Arenas (and, for a leader, the way to make one). */
function arenas(ctrl: ClubCtrl): VNode | null {
  if (ctrl.arenas === null) return null;
  return h('section.card.club-arenas', { attrs: { 'aria-labelledby': 'club-arenas-title', 'data-testid': 'club-arenas' } }, [
    h('h2', { attrs: { id: 'club-arenas-title' } }, t('arena.club.title')),
    ctrl.arenas.length === 0 ? h('p.muted', t('arena.club.none')) : h('ul.arena-list', ctrl.arenas.map(arenaRow)),
    ctrl.isLeader() ? h('p', [h('a', { attrs: { href: '/tournament/new', 'data-testid': 'club-arena-create' } }, t('arena.create'))]) : null,
  ]);
}

/** The whole club page. */
export function clubView(ctrl: ClubCtrl): VNode {
  const club = ctrl.club;
  if (!club) {
    if (ctrl.loadError) {
      return h('div.card.not-found', { attrs: { 'data-testid': 'club-error' } }, [
        h('h1', ctrl.missing ? t('club.notFound') : ctrl.loadError),
        h('p', [h('a', { attrs: { href: '/team' } }, t('club.back'))]),
      ]);
    }
    return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
  }
  return h('div.club-page', { attrs: { 'data-testid': 'club-page', 'data-id': club.id } }, [
    h('div.club-main', [
      h('section.card.club-head', { attrs: { 'aria-labelledby': 'club-name' } }, [
        h('p.small', [h('a', { attrs: { href: '/team', 'data-testid': 'club-back' } }, t('club.back'))]),
        h('h1', { attrs: { id: 'club-name', 'data-testid': 'club-name' } }, club.name),
        h('p.club-facts', clubFacts(club)),
        ctrl.editing
          ? editForm(ctrl)
          : h('div', [
              club.description ? h('p.club-description', { attrs: { 'data-testid': 'club-description' } }, club.description) : h('p.muted', { attrs: { 'data-testid': 'club-description' } }, t('club.description.none')),
              ctrl.isLeader() ? button(t('club.edit'), 'club-edit', ctrl, () => ctrl.startEdit()) : null,
            ]),
        h('p.club-leaders', { attrs: { 'data-testid': 'club-leaders' } }, [
          h('span.muted', `${t('club.leaders')} `),
          ...club.leaders.flatMap((l, i) => (i === 0 ? [userLink(l.name, 'club-leader')] : [', ', userLink(l.name, 'club-leader')])),
        ]),
        membership(ctrl),
        formError(ctrl.error, 'club-error-line'),
      ]),
      requests(ctrl),
      arenas(ctrl),
      chat(ctrl),
    ]),
    members(ctrl),
  ]);
}
