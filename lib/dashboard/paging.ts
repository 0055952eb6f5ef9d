import { z } from "zod";
import { intParam, type PaginationQuery, type SortOrder } from "@/lib/http/pagination";

export type { SortOrder };

/** What a page component gets as `searchParams`: a repeated parameter arrives as an array. */
export type SearchParams = Record<string, string | string[] | undefined>;

export const DEFAULT_PER_PAGE = 25;
// Far beyond any list the dashboard shows, and small enough that page × per_page stays a safe offset.
const MAX_PAGE = 100_000;
const MAX_PER_PAGE = 100;

/** A parameter's value; of a repeated one, the first. */
export function firstParam(params: SearchParams, name: string): string | undefined {
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
    page: pageParam.parse(firstParam(params, "page")),
    perPage: perPageParam(defaultPerPage).parse(firstParam(params, "per_page")),
  };
}

/** The page as the domain's list functions (and the API) take it. */
export function apiPageOf(query: PageQuery): PaginationQuery {
  return { page: query.page, per_page: query.perPage };
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
  const sort = z.enum(keys).catch(fallback).parse(firstParam(params, "sort"));
  const order = z.enum(["asc", "desc"]).optional().catch(undefined).parse(firstParam(params, "order")) ?? orders[sort];
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

/** A server-paged, server-sorted dashboard list: where it lives and which sorts it offers. */
export interface ListSpec<S extends string> {
  path: string;
  /** Each sort key and the direction it starts in. */
  sorts: Record<S, SortOrder>;
  /** The sort of a URL without a usable `?sort=`. */
  fallback: S;
  /** Rows per page without a usable `?per_page=`; DEFAULT_PER_PAGE when not given. */
  perPage?: number;
}

export type ListQuery<S extends string> = PageQuery & SortQuery<S>;

/** A filter's values as they go into links; undefined ones are left out. */
export type FilterParams = Record<string, string | undefined>;

/** The list's URL as a query; unusable parameters fall back to their defaults. */
export function listQueryOf<S extends string>(params: SearchParams, spec: ListSpec<S>): ListQuery<S> {
  return { ...pageQueryOf(params, spec.perPage), ...sortQueryOf(params, spec.sorts, spec.fallback) };
}

/** The list's link for `query` and its filters, leaving out defaults so links stay short. */
export function listHref<S extends string>(spec: ListSpec<S>, query: ListQuery<S>, filters: FilterParams = {}): string {
  return hrefWith(spec.path, { ...filters, ...sortParams(query, spec.sorts, spec.fallback), ...pageParams(query, spec.perPage) });
}

/** What a filter form sends along besides its filters: sort and page size (a new filter starts on page 1). */
export function carriedParams<S extends string>(spec: ListSpec<S>, query: ListQuery<S>): FilterParams {
  const { per_page } = pageParams(query, spec.perPage);
  return { ...sortParams(query, spec.sorts, spec.fallback), per_page: per_page?.toString() };
}

/** Previous / next page links and the sortable headers' links of one page of a list, filters kept. */
export function listLinks<S extends string>(
  spec: ListSpec<S>,
  query: ListQuery<S>,
  total: number,
  filters: FilterParams = {},
): PageLinks & { sorting: SortLinks<S> } {
  const href = (changes: Partial<ListQuery<S>>) => listHref(spec, { ...query, ...changes }, filters);
  return {
    ...pageLinks(query, total, (page) => href({ page })),
    // A new sort starts on the first page.
    sorting: sortLinks({ sort: query.sort, order: query.order }, spec.sorts, (sort, order) => href({ sort, order, page: 1 })),
  };
}
