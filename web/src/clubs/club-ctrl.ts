//! A club page's controller (`/team/{id}`): the club, its latest members,
//! joining (at once or by a request with a message), quitting, the
//! leaders' work (requests, kicks, leaders, the description and whether
//! the club is open) and the members' chat, followed every few seconds.
import { ApiError } from '../api.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import {
  answerRequest,
  type Club,
  clubChat,
  type ClubChatLine,
  clubMembers,
  type ClubMember,
  clubRequests,
  editClub,
  getClub,
  joinClub,
  type JoinRequest,
  kickMember,
  quitClub,
  sayInClub,
  setLeader,
} from './api.js';
import { type ArenaSummary, clubArenas } from '../tournaments/api.js';
import { clubErrorText, leads } from './model.js';

/** Members the page lists, the latest to join first. */
export const MEMBERS_SHOWN = 100;
/** How often the chat (and a pending request, and a leader's requests) is asked for again. */
export const FOLLOW_MS = 3_000;
/** Characters a chat line has at most (the server's bound). */
export const CLUB_CHAT_MAX = 140;

/** State of a club page. */
export class ClubCtrl implements Controller {
  club: Club | null = null;
  members: ClubMember[] | null = null;
  /** Pending requests to join, for a leader. */
  requests: JoinRequest[] | null = null;
  /** The members' chat, for a member. */
  chat: ClubChatLine[] | null = null;
  /** The club's Arenas, the latest start first. */
  arenas: ArenaSummary[] | null = null;
  /** Why loading failed (`missing` also set when there is no such club). */
  loadError: string | null = null;
  missing = false;
  /** Why the last action was refused. */
  error: string | null = null;
  busy = false;
  /** A closed club: the request form is open. */
  asking = false;
  message = '';
  /** A leader edits the description and whether the club is open. */
  editing = false;
  editDescription = '';
  editOpen = true;
  chatInput = '';
  chatError: string | null = null;
  sending = false;
  private alive = true;
  private following = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    readonly ctx: Ctx,
    readonly id: string,
  ) {
    void this.load();
    clubArenas(id)
      .then((list) => {
        this.arenas = list;
        this.redraw();
      })
      .catch(() => undefined);
    this.timer = setInterval(() => void this.follow(), FOLLOW_MS);
  }

  title(): string {
    return `${this.club?.name ?? t('clubs.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private redraw(): void {
    if (this.alive) this.ctx.redraw();
  }

  /** The viewer's username, when logged in. */
  me(): string | null {
    return this.ctx.account()?.username ?? null;
  }

  /** Does the viewer lead this club? */
  isLeader(): boolean {
    return this.club !== null && leads(this.club, this.me());
  }

  /** Does `memberId` lead this club? */
  memberLeads(memberId: string): boolean {
    return this.club?.leaders.some((l) => l.id === memberId) ?? false;
  }

  /** Loads everything the page shows. */
  async load(): Promise<void> {
    try {
      const [club, members] = await Promise.all([getClub(this.id), clubMembers(this.id, MEMBERS_SHOWN)]);
      this.club = club;
      this.members = members;
      this.missing = false;
      this.loadError = null;
      const [requests, chat] = await Promise.all([this.isLeader() ? clubRequests(this.id) : null, club.joined ? clubChat(this.id) : null]);
      this.requests = requests;
      this.chat = chat;
    } catch (e: unknown) {
      if (this.club === null) {
        this.missing = e instanceof ApiError && e.status === 404;
        this.loadError = clubErrorText(e);
      } else {
        this.error = clubErrorText(e);
      }
    }
    this.redraw();
  }

  /** Asks again for what changes while the page is open: the chat, a pending request, a leader's requests. */
  private async follow(): Promise<void> {
    const club = this.club;
    if (this.following || !club || !this.me() || !this.alive) return;
    this.following = true;
    try {
      if (club.requested && !club.joined) {
        // Accepted (or not) by a leader meanwhile?
        const now = await getClub(this.id);
        if (now.joined) await this.load();
        return;
      }
      const leader = this.isLeader();
      if (!club.joined && !leader) return;
      const [chat, requests] = await Promise.all([club.joined ? clubChat(this.id) : null, leader ? clubRequests(this.id) : null]);
      if (chat) this.chat = chat;
      if (requests) this.requests = requests;
      this.redraw();
    } catch {
      // No longer a member or a leader (kicked, the lead taken away): show the club as it now is.
      await this.load();
    } finally {
      this.following = false;
    }
  }

  /** Runs a change, then shows the club as it now is (or why the change was refused). */
  private act(run: () => Promise<unknown>): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.redraw();
    run()
      .then(() => this.load())
      .catch((e: unknown) => {
        this.error = clubErrorText(e);
      })
      .finally(() => {
        this.busy = false;
        this.redraw();
      });
  }

  /** Joins an open club at once; for a closed one, opens the request form. */
  join(): void {
    if (!this.club) return;
    if (this.club.open) {
      this.act(() => joinClub(this.id, ''));
      return;
    }
    this.asking = true;
    this.error = null;
    this.redraw();
  }

  /** Sends the request to join a closed club, with its message. */
  ask(): void {
    if (this.message.trim() === '') {
      this.error = t('club.message.needed');
      this.redraw();
      return;
    }
    this.act(async () => {
      await joinClub(this.id, this.message.trim());
      this.asking = false;
      this.message = '';
    });
  }

  cancelAsk(): void {
    this.asking = false;
    this.error = null;
    this.redraw();
  }

  quit(): void {
    this.act(() => quitClub(this.id));
  }

  answer(userId: string, accept: boolean): void {
    this.act(() => answerRequest(this.id, userId, accept));
  }

  kick(userId: string): void {
    this.act(() => kickMember(this.id, userId));
  }

  setLeader(userId: string, lead: boolean): void {
    this.act(() => setLeader(this.id, userId, lead));
  }

  startEdit(): void {
    if (!this.club) return;
    this.editing = true;
    this.editDescription = this.club.description;
    this.editOpen = this.club.open;
    this.error = null;
    this.redraw();
  }

  cancelEdit(): void {
    this.editing = false;
    this.error = null;
    this.redraw();
  }

  setEditOpen(open: boolean): void {
    this.editOpen = open;
    this.redraw();
  }

  saveEdit(): void {
    this.act(async () => {
      await editClub(this.id, this.editDescription, this.editOpen);
      this.editing = false;
    });
  }

  setChatInput(text: string): void {
    this.chatInput = text;
    if (this.chatError) {
      this.chatError = null;
      this.redraw();
    }
  }

  /** Says the chat input's line, then shows the chat again. */
  say(): void {
    const text = this.chatInput.trim();
    if (this.sending || text === '') return;
    this.sending = true;
    this.chatError = null;
    this.redraw();
    sayInClub(this.id, text)
      .then(async () => {
        this.chatInput = '';
        this.chat = await clubChat(this.id);
      })
      .catch((e: unknown) => {
        this.chatError = clubErrorText(e);
      })
      .finally(() => {
        this.sending = false;
        this.redraw();
      });
  }
}
