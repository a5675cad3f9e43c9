//! Reports and evidence as the moderation pages show them: the reports'
//! texts, the player's recent chat lines (shadowed ones marked), games,
//! and rated games against accounts seen on one of its addresses.
import { h, type VNode } from 'snabbdom';
import { lang, t } from '../i18n.js';
import { type Evidence, REASON_KEYS, type Report, type ReportReason } from './api.js';
import { when } from './model.js';

/** One report. */
export function reportItem(r: Report): VNode {
  return h('li.mod-report', { attrs: { 'data-testid': 'mod-report', 'data-reason': r.reason } }, [
    h('strong', r.reason in REASON_KEYS ? t(REASON_KEYS[r.reason as ReportReason]) : r.reason),
    ' · ',
    h('span', { attrs: { 'data-testid': 'mod-report-by' } }, r.reporter),
    ' · ',
    h('span.muted', when(r.created_at, lang())),
    h('p.mod-why', { attrs: { 'data-testid': 'mod-report-text' } }, r.text),
    r.outcome ? h('p.muted.small', { attrs: { 'data-testid': 'mod-report-outcome' } }, t('mod.report.closed', { by: r.closed_by ?? '', outcome: r.outcome })) : null,
  ]);
}

/** The player's recent chat lines and games. */
export function evidenceView(e: Evidence): VNode {
  return h('div.mod-evidence', [
    h('h3', t('mod.evidence.chat')),
    e.chat.length === 0
      ? h('p.muted', t('mod.evidence.none'))
      : h(
          'ul.mod-chat',
          { attrs: { 'data-testid': 'mod-evidence-chat' } },
          e.chat.map((l) =>
            h('li', { attrs: { 'data-testid': 'mod-evidence-line', 'data-shadow': String(l.shadow) } }, [
              h('span.muted.small', `${when(l.date, lang())} · ${l.room} · ${l.at}`),
              ' ',
              h('span', l.text),
              l.shadow ? h('span.badge', ` ${t('mod.evidence.shadow')}`) : null,
            ]),
          ),
        ),
    h('h3', t('mod.evidence.games')),
    e.games.length === 0
      ? h('p.muted', t('mod.evidence.none'))
      : h(
          'ul.mod-games',
          { attrs: { 'data-testid': 'mod-evidence-games' } },
          e.games.map((g) => h('li', [h('a', { attrs: { href: `/game/${encodeURIComponent(g.id)}` } }, g.id), h('span.muted.small', ` · ${g.status} · ${g.result} · ${g.plies} · ${when(g.date, lang())}`)])),
        ),
    h('h3', t('mod.evidence.shared')),
    e.sharedAddress.length === 0
      ? h('p.muted', { attrs: { 'data-testid': 'mod-evidence-shared-none' } }, t('mod.evidence.none'))
      : h('div', [
          h('p.muted.small', t('mod.evidence.shared.help')),
          h(
            'ul.mod-games',
            { attrs: { 'data-testid': 'mod-evidence-shared' } },
            e.sharedAddress.map((g) =>
              h('li', { attrs: { 'data-testid': 'mod-evidence-shared-game', 'data-game': g.game } }, [
                h('a', { attrs: { href: `/game/${encodeURIComponent(g.game)}` } }, g.game),
                ' · ',
                g.opponent ? h('a', { attrs: { href: `/mod/user/${encodeURIComponent(g.opponent)}` } }, g.opponent) : h('span.muted', t('mod.evidence.deleted')),
                h('span.muted.small', ` · ${when(g.date, lang())}`),
              ]),
            ),
          ),
        ]),
  ]);
}
