import { z } from "zod";
import { intParam } from "@/lib/http/pagination";

/** What a page component gets as `searchParams`: a repeated parameter arrives as an array. */
export type SearchParams = Record<string, string | string[] | undefined>;
export type SortOrder = "asc" | "desc";

export const DEFAULT_PER_PAGE = 25;
// Far beyond any list the dashboard shows, and small enough that page × per_page stays a safe offset.
const MAX_PAGE = 100_000;
const MAX_PER_PAGE = 100;

function first(params: SearchParams, name: string): string | undefined {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface PageQuery {
  page: number;
  perPage: number;
}

const pageParam = intParam(1, MAX_PAGE, 1).catch(1);
const perPageParam = (fallback: number) => intParam(1, MAX_PER_PAGE, fallback).catch(fallback);

/**
 * `?page=&per_page=` of a dashboard list. A hand-edited URL must not break the page, so a value that is
 * not a whole number in range falls back to its default instead of failing the request.
 */
export function pageQueryOf(params: SearchParams, defaultPerPage = DEFAULT_PER_PAGE): PageQuery {
  return {
    page: pageParam.parse(first(params, "page")),
    perPage: perPageParam(defaultPerPage).parse(first(params, "per_page")),
  };
}

/** The query's page parameters for a link, leaving out defaults so links stay short. */
export function pageParams(query: PageQuery, defaultPerPage = DEFAULT_PER_PAGE) {
  return {
    page: query.page === 1 ? undefined : query.page,
    per_page: query.perPage === defaultPerPage ? undefined : query.perPage,
  };
}

export interface SortQuery<S extends string> {
  sort: S;
  order: SortOrder;
}

/**
 * `?sort=&order=`, where `orders` maps each sort key to its usual direction (names A–Z, dates newest
 * first). An unknown key is the fallback sort; a missing or unknown order is the key's usual direction.
 */
export function sortQueryOf<S extends string>(params: SearchParams, orders: Record<S, SortOrder>, fallback: S): SortQuery<S> {
  const keys = Object.keys(orders) as [S, ...S[]];
  const sort = z.enum(keys).catch(fallback).parse(first(params, "sort"));
  const order = z.enum(["asc", "desc"]).optional().catch(undefined).parse(first(params, "order")) ?? orders[sort];
  return { sort, order };
}

/** The query's sort parameters for a link, leaving out defaults so links stay short. */
export function sortParams<S extends string>(query: SortQuery<S>, orders: Record<S, SortOrder>, fallback: S) {
  return {
    sort: query.sort === fallback ? undefined : query.sort,
    order: query.order === orders[query.sort] ? undefined : query.order,
  };
}

/** `path` with the parameters that have a value. */
export function hrefWith(path: string, values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== "") params.set(name, String(value));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

export interface PageLinks {
  pages: number;
  previous: string | null;
  next: string | null;
}

/** Links to the neighbouring pages; from a page past the end, "previous" leads back to the last one. */
export function pageLinks(query: PageQuery, total: number, href: (page: number) => string): PageLinks {
  const pages = Math.max(1, Math.ceil(total / query.perPage));
  return {
    pages,
    previous: query.page > 1 ? href(Math.min(query.page - 1, pages)) : null,
    next: query.page < pages ? href(query.page + 1) : null,
  };
}

/** Where each sortable column's header links to, and how the list is sorted now (sorting runs on the server). */
export interface SortLinks<S extends string = string> {
  current: SortQuery<S>;
  hrefs: Record<S, string>;
}

/** A header sorts by its column in that column's usual direction; the column sorted by now flips instead. */
export function sortLinks<S extends string>(
  current: SortQuery<S>,
  orders: Record<S, SortOrder>,
  href: (sort: S, order: SortOrder) => string,
): SortLinks<S> {
  const hrefs = {} as Record<S, string>;
  for (const sort of Object.keys(orders) as S[]) {
    const usual = orders[sort];
    const flipped = usual === "asc" ? "desc" : "asc";
    hrefs[sort] = href(sort, current.sort === sort && current.order === usual ? flipped : usual);
  }
  return { current, hrefs };
}
