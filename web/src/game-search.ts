//! The profile's game search: the filters a profile URL carries
//! (`/@/{name}?vs=&color=&result=&perfType=&rated=&analysed=&since=&until=`),
//! and the query of `GET /api/users/{name}/games` they make (dates as Unix
//! milliseconds: `since` from the start of its day, `until` to the end of
//! its day, in the browser's time zone).

/** The filters, by their URL keys; an absent key filters nothing. */
export type GameSearch = Partial<Record<SearchKey, string>>;

/** The URL keys of the filters, in the order the form shows them. */
export const SEARCH_KEYS = ['vs', 'color', 'result', 'perfType', 'rated', 'analysed', 'since', 'until'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];

/** The choices of each select, `''` meaning any. */
export const SEARCH_CHOICES = {
  color: ['', 'white', 'black'],
  result: ['', 'win', 'draw', 'loss'],
  perfType: ['', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'chess960'],
  rated: ['', 'true', 'false'],
  analysed: ['', 'true', 'false'],
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of a location's query string; unknown keys, empty values
 * and malformed dates are left out. */
export function searchOf(query: string): GameSearch {
  const params = new URLSearchParams(query);
  const out: GameSearch = {};
  for (const key of SEARCH_KEYS) {
    const v = (params.get(key) ?? '').trim();
    if (v === '') continue;
    if ((key === 'since' || key === 'until') && !DATE.test(v)) continue;
    out[key] = v.slice(0, 40);
  }
  return out;
}

/** The query string (without `?`) of `search` and `page` for a profile URL. */
export function searchQuery(search: GameSearch, page = 1): string {
  const params = new URLSearchParams();
  for (const key of SEARCH_KEYS) {
    const v = search[key];
    if (v) params.set(key, v);
  }
  if (page > 1) params.set('page', String(page));
  return params.toString();
}

/** Unix milliseconds of a `YYYY-MM-DD` day's start (or, with `end`, its
 * last millisecond) in the local time zone; null for no valid day. */
export function dayMillis(day: string, end = false): number | null {
  if (!DATE.test(day)) return null;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = end ? new Date(y, m - 1, d + 1).getTime() - 1 : new Date(y, m - 1, d).getTime();
  return Number.isNaN(t) ? null : t;
}

/** The API query (without `?`) of `search` at `page`. */
export function apiQuery(search: GameSearch, page: number): string {
  const params = new URLSearchParams({ page: String(page) });
  for (const key of SEARCH_KEYS) {
    const v = search[key];
    if (!v) continue;
    if (key === 'since' || key === 'until') {
      const t = dayMillis(v, key === 'until');
      if (t !== null) params.set(key, String(t));
    } else {
      params.set(key, v);
    }
  }
  return params.toString();
}

/** Does `search` filter anything? */
export function isFiltered(search: GameSearch): boolean {
  return SEARCH_KEYS.some((k) => Boolean(search[k]));
}
