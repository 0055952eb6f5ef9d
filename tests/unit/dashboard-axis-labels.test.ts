import { describe, expect, it } from "vitest";
import { axisLabelSpan, labelledPoints } from "@/lib/dashboard/axis-labels";

describe("labelledPoints", () => {
  it("names every point when all fit, at most six", () => {
    expect(labelledPoints(4, 800, 40)).toEqual([0, 1, 2, 3]);
    expect(labelledPoints(30, 800, 40)).toEqual([0, 6, 12, 17, 23, 29]);
  });

  it("names fewer points where their labels would collide, always the first and the last", () => {
    // A year of weeks on a half-width chart at 1440 px: six labels of 90 px would overlap their neighbours, four fit.
    const points = labelledPoints(53, 450, 90);
    expect(points).toEqual([0, 17, 35, 52]);
    const spans = points.map((index) => axisLabelSpan(index, 53, 450, 90));
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.left - spans[i - 1]!.right).toBeGreaterThanOrEqual(12);
    // A phone.
    expect(labelledPoints(53, 250, 90)).toEqual([0, 52]);
  });

  it("names only the first point when even the first and the last would collide", () => {
    expect(labelledPoints(53, 150, 90)).toEqual([0]);
    expect(labelledPoints(1, 150, 90)).toEqual([0]);
    expect(labelledPoints(0, 150, 90)).toEqual([]);
  });
});
