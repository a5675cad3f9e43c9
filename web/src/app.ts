//! The app shell: routing from the URL to a page (its controller composed
//! with its view), client-side navigation (links inside the app, history),
//! the account shown in the header, the incoming-challenges banner, the
//! language switch, and `redraw()`,
//! which renders the whole view from the state and patches the DOM. Leaving
//! a page calls its `destroy()` and removes its DOM, whose destroy hooks
//! dispose the board.
import { h, type VNode } from 'snabbdom';
import { AccountCtrl } from './account/ctrl.js';
import { accountView } from './account/view.js';
import { AnalysisCtrl } from './analysis/ctrl.js';
import { sourceOf } from './analysis/source.js';
import { analysisView } from './analysis/view.js';
import { type Account, logout, siteInfo } from './api.js';
import { AuthCtrl } from './auth/ctrl.js';
import { IncomingCtrl } from './challenge-banner.js';
import { ClubCtrl } from './clubs/club-ctrl.js';
import { clubView } from './clubs/club-view.js';
import { ClubsCtrl } from './clubs/list-ctrl.js';
import { clubsView } from './clubs/list-view.js';
import { ClubNewCtrl } from './clubs/new-ctrl.js';
import { clubNewView } from './clubs/new-view.js';
import { SwissCtrl } from './swiss/swiss-ctrl.js';
import { swissView } from './swiss/swiss-view.js';
import { incomingView } from './challenge-view.js';
import { authView } from './auth/view.js';
import { GameCtrl } from './game/ctrl.js';
import { gameView } from './game/view.js';
import { headerView } from './header.js';
import { HomeCtrl } from './home/ctrl.js';
import { homeView } from './home/view.js';
import { ImportCtrl } from './import/ctrl.js';
import { importView } from './import/view.js';
import { type Lang, lang, setLang, setSiteName } from './i18n.js';
import { LearnCtrl } from './learn/ctrl.js';
import { learnView } from './learn/view.js';
import { OAuthCtrl } from './oauth/ctrl.js';
import { oauthView } from './oauth/view.js';
import { ModLogCtrl } from './moderation/log-ctrl.js';
import { modLogView } from './moderation/log-view.js';
import { ModQueueCtrl } from './moderation/queue-ctrl.js';
import { modQueueView } from './moderation/queue-view.js';
import { ModRolesCtrl } from './moderation/roles-ctrl.js';
import { modRolesView } from './moderation/roles-view.js';
import { ModUserCtrl } from './moderation/user-ctrl.js';
import { modUserView } from './moderation/user-view.js';
import { MultiplayerCtrl } from './multiplayer/ctrl.js';
import { multiplayerView } from './multiplayer/view.js';
import { compose, type Ctx, type Page } from './page.js';
import { PerfCtrl } from './perf/ctrl.js';
import { applyPrefs, loadAccountPrefs } from './prefs.js';
import { PrefsCtrl } from './prefs/ctrl.js';
import { prefsView } from './prefs/view.js';
import { TvCtrl } from './tv/ctrl.js';
import { tvView } from './tv/view.js';
import { perfView } from './perf/view.js';
import { ProfileCtrl } from './profile/ctrl.js';
import { profileView } from './profile/view.js';
import { ReviewCtrl } from './review/ctrl.js';
import { reviewView } from './review/view.js';
import { DashboardCtrl } from './puzzle/dashboard.js';
import { dashboardView } from './puzzle/dashboard-view.js';
import { TrainerCtrl } from './puzzle/ctrl.js';
import { daysParam } from './puzzle/model.js';
import { StormCtrl } from './puzzle/storm.js';
import { stormView } from './puzzle/storm-view.js';
import { StreakCtrl } from './puzzle/streak.js';
import { streakView } from './puzzle/streak-view.js';
import { ThemesCtrl } from './puzzle/themes-page.js';
import { themesView } from './puzzle/themes-view.js';
import { trainerView } from './puzzle/view.js';
import { route } from './route.js';
import { patch } from './snab.js';
import { TableCtrl } from './table/ctrl.js';
import { tableView } from './table/view.js';
import { TokensCtrl } from './tokens/ctrl.js';
import { ArenaCtrl } from './tournaments/ctrl.js';
import { ArenasCtrl } from './tournaments/list-ctrl.js';
import { arenasView } from './tournaments/list-view.js';
import { ArenaNewCtrl } from './tournaments/new-ctrl.js';
import { arenaNewView } from './tournaments/new-view.js';
import { arenaView } from './tournaments/view.js';
import { tokensView } from './tokens/view.js';
import { InboxCtrl } from './inbox/ctrl.js';
import { UnreadCount } from './inbox/unread.js';
import { BellCtrl } from './notify/bell.js';
import { inboxView } from './inbox/view.js';
import { WarningCtrl } from './warning.js';
import { warningView } from './warning-view.js';

/** Is a click on `a` one the app should handle itself (a plain left click on a link to one of its pages)? */
function ownLink(e: MouseEvent): HTMLAnchorElement | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download') || (a.getAttribute('href') ?? '').startsWith('#')) return null;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/assets/')) return null;
  return a;
}

/** The running app. */
export class App {
  private vnode: VNode | Element;
  private page: Page;
  /** Increases with every page, so that a new page never reuses the old one's DOM. */
  private pageNo = 0;
  private patching = false;
  private again = false;
  /** The language being switched to (shown in the switcher while its table loads). */
  private wantedLang: Lang = lang();
  private readonly ctx: Ctx;
  /** The challenges received, shown on every page. */
  private readonly incoming: IncomingCtrl;
  /** The header's count of unread conversations. */
  private readonly unread: UnreadCount;
  /** The header's notifications, pushed over the site socket. */
  private readonly bell: BellCtrl;
  /** The moderators' unread warning, shown on the next page. */
  private readonly warning: WarningCtrl;

  constructor(
    root: Element,
    private account: Account | null,
  ) {
    this.ctx = {
      redraw: () => this.redraw(),
      navigate: (path) => this.navigate(path),
      account: () => this.account,
      setAccount: (a) => {
        this.account = a;
        if (a) void loadAccountPrefs().then(() => this.redraw(), () => undefined);
        this.incoming.follow(a !== null);
        this.unread.follow(a !== null);
        this.bell.follow(a !== null);
        this.redraw();
      },
    };
    this.unread = new UnreadCount(() => this.redraw());
    this.bell = new BellCtrl({
      redraw: () => this.redraw(),
      heard: (note) => {
        // What the notification concerns is shown at once, not at the next poll.
        if (note.kind === 'msg') this.unread.refresh();
        else this.incoming.poll();
      },
      caughtUp: () => {
        this.unread.refresh();
        this.incoming.poll();
      },
    });
    this.incoming = new IncomingCtrl({ redraw: () => this.redraw(), navigate: (path) => this.navigate(path) });
    this.warning = new WarningCtrl(() => this.redraw());
    this.vnode = root;
    this.page = this.open();
    // Pages the server rendered itself (Learn) are in the root: the first page has taken what it needs.
    root.replaceChildren();
    document.addEventListener('click', (e) => {
      const a = ownLink(e);
      if (!a) return;
      e.preventDefault();
      const url = new URL(a.href);
      this.navigate(url.pathname + url.search);
    });
    window.addEventListener('popstate', () => this.show());
    this.redraw();
    // The name the site's admins gave it, in the header and the titles.
    siteInfo()
      .then((s) => {
        setSiteName(s.name);
        this.redraw();
      })
      .catch(() => {});
    this.incoming.follow(account !== null);
    this.unread.follow(account !== null);
    this.bell.follow(account !== null);
    applyPrefs();
    if (account) void loadAccountPrefs().then(() => this.redraw(), () => undefined);
  }

  private open(): Page {
    const r = route(location.pathname, location.search);
    this.pageNo++;
    this.warning.check(this.account !== null);
    switch (r.page) {
      case 'game':
        return compose(new GameCtrl(this.ctx, r.id), gameView);
      case 'signup':
      case 'login':
        return compose(new AuthCtrl(this.ctx, r.page), authView);
      case 'account':
        return compose(new AccountCtrl(this.ctx), accountView);
      case 'tokens':
        return compose(new TokensCtrl(this.ctx, location.search), tokensView);
      case 'oauth':
        return compose(new OAuthCtrl(this.ctx, location.search), oauthView);
      case 'multiplayer':
        return compose(new MultiplayerCtrl(this.ctx), multiplayerView);
      case 'table':
        return compose(new TableCtrl(this.ctx, r.code), tableView);
      case 'prefs':
        return compose(new PrefsCtrl(this.ctx), prefsView);
      case 'tv':
        return compose(new TvCtrl(this.ctx, r.channel), tvView);
      case 'perf':
        return compose(new PerfCtrl(this.ctx, r.username, r.speed), perfView);
      case 'profile':
        return compose(new ProfileCtrl(this.ctx, r.username, r.n, r.search), profileView);
      case 'review':
        return compose(new ReviewCtrl(this.ctx, r.id), reviewView);
      case 'analysis':
        return compose(new AnalysisCtrl(this.ctx, sourceOf(location.pathname, location.search)), analysisView);
      case 'import':
        return compose(new ImportCtrl(this.ctx), importView);
      case 'training':
        return compose(new TrainerCtrl(this.ctx, r.angle), trainerView);
      case 'puzzleThemes':
        return compose(new ThemesCtrl(), themesView);
      case 'puzzleDashboard':
        return compose(new DashboardCtrl(this.ctx, daysParam(location.search)), dashboardView);
      case 'streak':
        return compose(new StreakCtrl(this.ctx), streakView);
      case 'storm':
        return compose(new StormCtrl(this.ctx), stormView);
      case 'learn':
        return compose(new LearnCtrl(this.ctx, r.slug), learnView);
      case 'clubs':
        return compose(new ClubsCtrl(this.ctx, r.text, r.n), clubsView);
      case 'clubNew':
        return compose(new ClubNewCtrl(this.ctx), clubNewView);
      case 'club':
        return compose(new ClubCtrl(this.ctx, r.id), clubView);
      case 'swiss':
        return compose(new SwissCtrl(this.ctx, r.id), swissView);
      case 'arenas':
        return compose(new ArenasCtrl(this.ctx), arenasView);
      case 'arenaNew':
        return compose(new ArenaNewCtrl(this.ctx), arenaNewView);
      case 'arena':
        return compose(new ArenaCtrl(this.ctx, r.id), arenaView);
      case 'inbox':
        return compose(new InboxCtrl(this.ctx, r.username, () => this.unread.refresh()), inboxView);
      case 'modQueue':
        return compose(new ModQueueCtrl(this.ctx), modQueueView);
      case 'modLog':
        return compose(new ModLogCtrl(this.ctx), modLogView);
      case 'modRoles':
        return compose(new ModRolesCtrl(this.ctx), modRolesView);
      case 'modUser':
        return compose(new ModUserCtrl(this.ctx, r.username), modUserView);
      default:
        return compose(new HomeCtrl(this.ctx), homeView);
    }
  }

  /** Replaces the page by the one at the current URL. */
  private show(): void {
    this.page.destroy();
    this.page = this.open();
    this.unread.refresh();
    this.bell.close();
    this.redraw();
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }

  /** Opens `path` as a new history entry. */
  navigate(path: string): void {
    history.pushState(null, '', path);
    this.show();
  }

  private switchLang(next: Lang): void {
    this.wantedLang = next;
    this.redraw();
    void setLang(next).then(() => this.redraw());
  }

  private logout(): void {
    logout()
      .catch(() => undefined)
      .finally(() => {
        this.account = null;
        this.incoming.follow(false);
        this.unread.follow(false);
        this.bell.follow(false);
        this.navigate('/');
      });
  }

  private view(): VNode {
    return h('div#app', [
      headerView({
        account: this.account,
        lang: this.wantedLang,
        unread: this.unread.n,
        bell: this.bell,
        switchLang: (l) => this.switchLang(l),
        logout: () => this.logout(),
      }),
      incomingView(this.incoming),
      warningView(this.warning),
      h('main#main', { attrs: { tabindex: -1 } }, [h('div.page', { key: this.pageNo }, [this.page.view()])]),
    ]);
  }

  /** Renders the whole app from the current state. Re-entrant calls (from hooks) run once more after the current patch. */
  redraw(): void {
    if (this.patching) {
      this.again = true;
      return;
    }
    this.patching = true;
    try {
      do {
        this.again = false;
        this.vnode = patch(this.vnode, this.view());
        document.title = this.page.title();
      } while (this.again);
    } finally {
      this.patching = false;
    }
  }
}
