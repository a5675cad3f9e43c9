//! Best scores of Puzzle Streak and Puzzle Storm, kept in this browser
//! (localStorage; nothing is sent to the server, with or without an account).

/** The best score remembered under `key` (0 if none). */
export function bestScore(key: string): number {
  try {
    const n = Number(localStorage.getItem(key) ?? '0');
    return Number.isInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** Remembers `score` if it beats the best; answers the best. */
export function noteScore(key: string, score: number): number {
  const best = bestScore(key);
  if (score <= best) return best;
  try {
    localStorage.setItem(key, String(score));
  } catch {
    // Not remembered without storage.
  }
  return score;
}
