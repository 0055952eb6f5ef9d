/** Overlaps the rotate dialog offers (seconds): none, an hour, a day, a week (the longest allowed). Browser-safe. */
export const ROTATION_OVERLAPS = [0, 3600, 86_400, 604_800] as const;
