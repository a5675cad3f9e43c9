//! The chat panel of a table game page: the room's lines as text, a line
//! input limited to 140 characters (for viewers with an account), and the
//! "Hide chat" toggle.
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { authPath } from '../route.js';
import type { ChatLine } from '../socket.js';
import { CHAT_MAX, type ChatCtrl } from './chat.js';

/** The panel; null where there is no chat. `canSpeak`: the viewer has an account; `reportHref`: where a line's report button leads (null: none for it). */
export function chatPanel(chat: ChatCtrl, canSpeak: boolean, reportHref: (l: ChatLine) => string | null = () => null): VNode | null {
  const room = chat.room;
  if (!room) return null;
  const toggle = h(
    'button.link-button.chat-toggle',
    { attrs: { type: 'button', 'data-testid': 'chat-toggle', 'aria-pressed': String(chat.hidden) }, on: { click: () => chat.toggle() } },
    t(chat.hidden ? 'chat.show' : 'chat.hide'),
  );
  const title = h('h2.panel-title', { attrs: { id: 'chat-title' } }, t(room === 'player' ? 'chat.room.player' : 'chat.room.spectator'));
  if (chat.hidden) {
    return h('section.card.side-card.chat.chat-hidden', { attrs: { 'aria-labelledby': 'chat-title', 'data-testid': 'chat' } }, [title, toggle]);
  }
  const lines = chat.lines.map((l) => {
    const report = reportHref(l);
    // Text children only: snabbdom makes text nodes, so markup in a line is shown, never run.
    return h('li.chat-line', { attrs: { 'data-testid': 'chat-line' } }, [
      h('strong.chat-user', l.user),
      ' ',
      h('span.chat-text', l.text),
      report ? h('a.chat-report.muted.small', { attrs: { href: report, 'data-testid': 'chat-report', title: t('report.chatLine', { name: l.user }) } }, ` ${t('report.short')}`) : null,
    ]);
  });
  return h('section.card.side-card.chat', { attrs: { 'aria-labelledby': 'chat-title', 'data-testid': 'chat', 'data-room': room } }, [
    title,
    toggle,
    h(
      'ol.chat-lines',
      {
        attrs: { 'aria-live': 'polite', 'data-testid': 'chat-lines' },
        hook: {
          postpatch: (_old, vnode) => {
            const el = vnode.elm as HTMLElement;
            el.scrollTop = el.scrollHeight;
          },
        },
      },
      lines.length ? lines : [h('li.muted.small', t('chat.empty'))],
    ),
    canSpeak
      ? h(
          'form.chat-form',
          {
            on: {
              submit: (e: Event) => {
                e.preventDefault();
                chat.submit();
              },
            },
          },
          [
            h('label.visually-hidden', { attrs: { for: 'chat-input' } }, t('chat.say')),
            h('input', {
              attrs: { id: 'chat-input', type: 'text', maxlength: CHAT_MAX, autocomplete: 'off', placeholder: t('chat.say'), 'data-testid': 'chat-input' },
              props: { value: chat.input, disabled: chat.sending },
              on: { input: (e: Event) => chat.setInput((e.target as HTMLInputElement).value) },
            }),
            h('button', { attrs: { type: 'submit', 'data-testid': 'chat-send' }, props: { disabled: chat.sending } }, t('chat.send')),
          ],
        )
      : h('p.muted.small', [h('a', { attrs: { href: authPath('login', location.pathname + location.search), 'data-testid': 'chat-login' } }, t('chat.error.login'))]),
    h('p.form-error', { attrs: { role: 'alert', 'data-testid': 'chat-error' } }, chat.error),
  ]);
}
