import { describe, expect, it } from "vitest";
import { API_KEY_LIST, apiKeysQueryOf } from "@/lib/dashboard/api-keys";
import { listHref, pageLinks, pageQueryOf, sortLinks, sortQueryOf } from "@/lib/dashboard/paging";

const SORTS = { created: "desc", name: "asc" } as const;

describe("dashboard list parameters", () => {
  it("reads page, per_page, sort and order from the URL", () => {
    expect(pageQueryOf({ page: "3", per_page: "5" })).toEqual({ page: 3, perPage: 5 });
    expect(sortQueryOf({ sort: "name", order: "desc" }, SORTS, "created")).toEqual({ sort: "name", order: "desc" });
    expect(sortQueryOf({ sort: "name" }, SORTS, "created")).toEqual({ sort: "name", order: "asc" });
  });

  it("falls back to the defaults for hand-edited values instead of failing", () => {
    for (const page of ["0", "-1", "1.5", "1e3", "abc", "", "999999999999", " 2"]) {
      expect(pageQueryOf({ page }).page, page).toBe(1);
    }
    for (const perPage of ["0", "101", "x", "-5"]) expect(pageQueryOf({ per_page: perPage }).perPage, perPage).toBe(25);
    expect(pageQueryOf({ page: ["2", "7"] }).page).toBe(2);
    expect(sortQueryOf({ sort: "hash; drop table", order: "sideways" }, SORTS, "created")).toEqual({ sort: "created", order: "desc" });
    expect(sortQueryOf({ sort: "constructor" }, SORTS, "created").sort).toBe("created");
  });

  it("links to neighbouring pages, and back from past the end", () => {
    const href = (page: number) => `/list?page=${page}`;
    expect(pageLinks({ page: 1, perPage: 5 }, 12, href)).toEqual({ pages: 3, previous: null, next: "/list?page=2" });
    expect(pageLinks({ page: 3, perPage: 5 }, 12, href)).toEqual({ pages: 3, previous: "/list?page=2", next: null });
    expect(pageLinks({ page: 9, perPage: 5 }, 12, href)).toEqual({ pages: 3, previous: "/list?page=3", next: null });
    expect(pageLinks({ page: 1, perPage: 5 }, 0, href)).toEqual({ pages: 1, previous: null, next: null });
  });

  it("sorts a column in its usual direction first and flips the column sorted by", () => {
    const href = (sort: string, order: string) => `${sort}:${order}`;
    expect(sortLinks({ sort: "created", order: "desc" }, SORTS, href).hrefs).toEqual({ created: "created:asc", name: "name:asc" });
    expect(sortLinks({ sort: "name", order: "asc" }, SORTS, href).hrefs).toEqual({ created: "created:desc", name: "name:desc" });
    expect(sortLinks({ sort: "name", order: "desc" }, SORTS, href).hrefs).toEqual({ created: "created:desc", name: "name:asc" });
  });

  it("leaves defaults out of API key links", () => {
    expect(listHref(API_KEY_LIST, apiKeysQueryOf({}))).toBe("/api-keys");
    const query = apiKeysQueryOf({ page: "2", per_page: "5", sort: "last_used", order: "asc" });
    expect(listHref(API_KEY_LIST, query)).toBe("/api-keys?sort=last_used&order=asc&page=2&per_page=5");
    expect(listHref(API_KEY_LIST, { ...query, sort: "name", order: "asc", page: 1, perPage: 25 })).toBe("/api-keys?sort=name");
  });
});
