//! Reports and evidence as the moderation pages show them: the reports'
//! texts, the player's recent chat lines (shadowed ones marked), games,
//! rated games against accounts seen on one of its addresses, and the
//! fair-play verdicts on its rated games.
import { h, type VNode } from 'snabbdom';
import { lang, t } from '../i18n.js';
import { type Evidence, type FairPlay, REASON_KEYS, type Report, type ReportReason } from './api.js';
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

/** The fair-play summary and the judged games, worst verdicts first. */
function fairPlayView(f: FairPlay): VNode {
  const rank = ['cheating', 'likelyCheating', 'unclear', 'unlikelyCheating', 'notCheating'];
  const order = (v: string | null): number => (v !== null && rank.includes(v) ? rank.indexOf(v) : rank.length);
  const games = [...f.games].sort((a, b) => order(a.verdict) - order(b.verdict));
  return h('div', { attrs: { 'data-testid': 'mod-fair', 'data-flagged': String(f.flagged) } }, [
    h('h3', t('mod.fair.title')),
    h('p.muted.small', t('mod.fair.help')),
    h('p', [
      h(f.flagged ? 'strong.badge' : 'span', { attrs: { 'data-testid': 'mod-fair-flag' } }, f.flagged ? t('mod.fair.flagged') : t('mod.fair.clear')),
      ' · ',
      h('span', { attrs: { 'data-testid': 'mod-fair-counts' } }, t('mod.fair.counts', { assessed: f.assessed, rated: f.ratedGames, cheating: f.cheating, likely: f.likelyCheating })),
    ]),
    games.length === 0
      ? null
      : h(
          'ul.mod-games',
          games.map((g) =>
            h('li', { attrs: { 'data-testid': 'mod-fair-game', 'data-verdict': g.verdict ?? 'none' } }, [
              h('a', { attrs: { href: `/game/${encodeURIComponent(g.id)}` } }, g.id),
              ` · ${g.color}${g.speed ? ` · ${g.speed}` : ''} · `,
              h('strong', t(`mod.fair.verdict.${g.verdict ?? 'none'}`)),
              g.acpl === null ? null : h('span.muted.small', ` · ${t('mod.fair.acpl', { acpl: g.acpl })}`),
              g.signals.length === 0 ? null : h('span.muted.small', ` · ${g.signals.map((s) => t(`mod.fair.signal.${s}`)).join(', ')}`),
            ]),
          ),
        ),
  ]);
}

/** The player's recent chat lines and games. */
export function evidenceView(e: Evidence): VNode {
  return h('div.mod-evidence', [
    fairPlayView(e.fairPlay),
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
