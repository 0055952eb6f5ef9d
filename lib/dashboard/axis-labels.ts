/** Space left between two x-axis labels, in px. */
const LABEL_GAP_PX = 12;

/** Most labels on an x axis, however wide. */
const MOST_LABELS = 6;

/**
 * Where the x-axis label of point `index` of `count` lies on an axis `axisWidth` px wide, for a label `labelWidth`
 * px wide: the first starts at the axis's left end and the last ends at its right end (neither overhangs the
 * chart), the others are centred on their point.
 */
export function axisLabelSpan(index: number, count: number, axisWidth: number, labelWidth: number): { left: number; right: number } {
  if (index === 0) return { left: 0, right: labelWidth };
  if (index === count - 1) return { left: axisWidth - labelWidth, right: axisWidth };
  const centre = ((index + 0.5) / count) * axisWidth;
  return { left: centre - labelWidth / 2, right: centre + labelWidth / 2 };
}

/** `slots` points evenly spread over `count`, the first and the last included. */
function evenly(count: number, slots: number): number[] {
  return Array.from({ length: slots }, (_, i) => Math.round((i * (count - 1)) / (slots - 1)));
}

/**
 * Which of `count` points get an x-axis label: the first, the last and as many evenly between as fit with
 * LABEL_GAP_PX between neighbours, no label being wider than `labelWidth`. Only the first when even the first
 * and the last would collide.
 */
export function labelledPoints(count: number, axisWidth: number, labelWidth: number): number[] {
  for (let slots = Math.min(count, MOST_LABELS); slots > 1; slots--) {
    const points = evenly(count, slots);
    const spans = points.map((index) => axisLabelSpan(index, count, axisWidth, labelWidth));
    if (spans.every((span, i) => i === 0 || spans[i - 1]!.right + LABEL_GAP_PX <= span.left)) return points;
  }
  return count > 0 ? [0] : [];
}
