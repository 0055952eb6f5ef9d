/**
 * `npx tsx --conditions=react-server bench/summary.ts` (the last step of `npm run bench`): which targets hold.
 *
 * Reads bench/results.json, which every benchmark of the run has written its figures and verdicts into, and
 * writes one "Targets" table, first in bench/results.md, and prints it: every target of issue 18 and the speed
 * targets of issue 16, with the measured value, the target, whether it holds, and the section of results.md
 * (and key of results.json) it comes from. A target no benchmark measured says so instead of a verdict; the
 * date beside each figure shows when its benchmark last ran (results.json keeps every benchmark's latest
 * figures, so a benchmark left out of a run shows its older ones).
 */
import { readResults, saveMarkdownSection } from "./support/results";
import { targetRows, targetsMarkdown } from "./support/targets";

const lines = targetsMarkdown(targetRows(readResults()));
saveMarkdownSection("targets", lines, { first: true });
console.log(lines.join("\n"));
