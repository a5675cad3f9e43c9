//! TV's API: the channels (`GET /api/tv/channels`), the games in progress
//! (`GET /api/tv/games`), and a channel's NDJSON feed read line by line.
import { call } from '../api.js';

/** The channels, in the order the page lists them. */
export const CHANNELS = ['best', 'bullet', 'blitz', 'rapid', 'classical', 'chess960', 'bot', 'computer'] as const;
export type ChannelKey = (typeof CHANNELS)[number];

/** A channel's featured game, as `/api/tv/channels` tells it. */
export interface ChannelGame {
  gameId: string;
  color: 'white' | 'black';
  rating: number | null;
  user?: { id: string; name: string; title?: string };
}

/** A player of a featured game. */
export interface TvPlayer {
  color: 'white' | 'black';
  user?: { id: string; name: string; title?: string };
  ai?: number;
  rating?: number;
  seconds: number;
}

/** A game in progress of `/api/tv/games`. */
export interface LiveGame {
  id: string;
  perf: string;
  fen: string;
  players: TvPlayer[];
}

/** One feed line. */
export type FeedLine =
  | { t: 'featured'; d: { id: string; orientation: 'white' | 'black'; players: TvPlayer[]; fen: string } }
  | { t: 'fen'; d: { fen: string; lm: string; wc: number; bc: number } };

export function tvChannels(): Promise<Partial<Record<ChannelKey, ChannelGame>>> {
  return call('GET', '/api/tv/channels');
}

export function tvGames(): Promise<LiveGame[]> {
  return call('GET', '/api/tv/games');
}

/** Reads `channel`'s feed until `signal` aborts it, handing each line to `onLine`. */
export async function readFeed(channel: ChannelKey, signal: AbortSignal, onLine: (l: FeedLine) => void): Promise<void> {
  const res = await fetch(`/api/tv/${channel}/feed`, { signal, headers: { Accept: 'application/x-ndjson' } });
  if (!res.ok || !res.body) throw new Error(`feed ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const text = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (text) onLine(JSON.parse(text) as FeedLine);
      nl = buffered.indexOf('\n');
    }
  }
}
