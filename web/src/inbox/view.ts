//! The inbox page: the conversations (the latest first, unread ones
//! marked), and the open conversation with its messages (plain text, line
//! breaks kept) and the form that answers it.
import { h, type VNode } from 'snabbdom';
import { profilePath } from '../api.js';
import { dateTime } from '../home/view.js';
import { t } from '../i18n.js';
import { reportHref } from '../moderation/report-link.js';
import { authPath } from '../route.js';
import { type Convo, MAX_MSG_CHARS, refusalText, type Thread } from './api.js';
import type { InboxCtrl } from './ctrl.js';

function contactItem(ctrl: InboxCtrl, th: Thread, me: string): VNode {
  const unread = !th.lastMsg.read && th.lastMsg.user !== me;
  const current = ctrl.data?.convo?.user.id === th.user.id;
  return h(`li.inbox-contact${unread ? '.unread' : ''}${current ? '.current' : ''}`, { attrs: { 'data-testid': 'inbox-contact', 'data-name': th.user.name, 'data-unread': String(unread) } }, [
    h('a', { attrs: { href: `/inbox/${encodeURIComponent(th.user.name)}` } }, [
      h('strong', th.user.name),
      th.user.online ? h('span.online-dot', { attrs: { title: t('rel.online'), 'aria-label': t('rel.online') } }) : null,
      h('span.inbox-last.muted.small', th.lastMsg.text),
    ]),
  ]);
}

function convoView(ctrl: InboxCtrl, c: Convo, me: string): VNode {
  return h('section.card.inbox-convo', { attrs: { 'data-testid': 'inbox-convo', 'aria-labelledby': 'convo-title' } }, [
    h('h2', { attrs: { id: 'convo-title' } }, [h('a', { attrs: { href: profilePath(c.user.name), 'data-testid': 'inbox-convo-user' } }, c.user.name)]),
    c.msgs.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'inbox-empty-convo' } }, t('inbox.noMsgs'))
      : h(
          'ol.inbox-msgs',
          c.msgs.map((m) =>
            h(`li.inbox-msg${m.user === me ? '.mine' : ''}`, { attrs: { 'data-testid': 'inbox-msg', 'data-mine': String(m.user === me) } }, [
              h('p.inbox-text', m.text),
              h('span.muted.small', dateTime(new Date(m.date).toISOString())),
              m.user === me
                ? null
                : h('a.chat-report.muted.small', { attrs: { href: reportHref(c.user.name, 'abuse', t('report.msgText', { text: m.text })), 'data-testid': 'inbox-report', title: t('report.player', { name: c.user.name }) } }, ` ${t('report.short')}`),
            ]),
          ),
        ),
    c.postable
      ? h(
          'form.inbox-form',
          {
            attrs: { novalidate: true, 'data-testid': 'inbox-form' },
            on: {
              submit: (e: Event) => {
                e.preventDefault();
                ctrl.send();
              },
            },
          },
          [
            h('label.visually-hidden', { attrs: { for: 'inbox-text' } }, t('inbox.write')),
            h('textarea', {
              attrs: { id: 'inbox-text', 'data-testid': 'inbox-text', rows: 3, maxlength: MAX_MSG_CHARS, placeholder: t('inbox.write') },
              props: { value: ctrl.text },
              on: { input: (e: Event) => (ctrl.text = (e.target as HTMLTextAreaElement).value) },
            }),
            ctrl.error ? h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'inbox-error' } }, ctrl.error) : null,
            h('button.primary', { attrs: { type: 'submit', 'data-testid': 'inbox-send' }, props: { disabled: ctrl.busy } }, t('inbox.send')),
          ],
        )
      : h('p.muted', { attrs: { 'data-testid': 'inbox-refusal' } }, c.refusal ? refusalText(c.refusal) : t('inbox.refusal.blocked')),
  ]);
}

/** The whole page (a log-in prompt when nobody is logged in). */
export function inboxView(ctrl: InboxCtrl): VNode {
  if (!ctrl.ctx.account()) {
    return h('section.card', { attrs: { 'data-testid': 'inbox-page' } }, [
      h('h1', t('inbox.title')),
      h('p', [h('a', { attrs: { href: authPath('login', location.pathname) } }, t('inbox.needLogin'))]),
    ]);
  }
  if (ctrl.failed) {
    const key = ctrl.failed === 'missing' ? 'inbox.error.noUser' : ctrl.failed === 'self' ? 'inbox.error.self' : 'error.network';
    return h('section.card', { attrs: { 'data-testid': 'inbox-page' } }, [h('h1', t('inbox.title')), h('p.form-error', { attrs: { 'data-testid': 'inbox-failed' } }, t(key))]);
  }
  const d = ctrl.data;
  if (!d) return h('p.muted.loading', { attrs: { 'aria-busy': 'true' } }, '…');
  return h('div.inbox', { attrs: { 'data-testid': 'inbox-page' } }, [
    h('section.card.inbox-list', { attrs: { 'aria-labelledby': 'inbox-title' } }, [
      h('h1', { attrs: { id: 'inbox-title' } }, t('inbox.title')),
      d.contacts.length === 0
        ? h('p.muted', { attrs: { 'data-testid': 'inbox-none' } }, t('inbox.none'))
        : h('ul.inbox-contacts', d.contacts.map((th) => contactItem(ctrl, th, d.me.id))),
    ]),
    d.convo ? convoView(ctrl, d.convo, d.me.id) : null,
  ]);
}
