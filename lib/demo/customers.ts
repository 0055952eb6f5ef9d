/** Swedish-ish customer data shared by the demo seed and the bulk order generator (bulk-seed.ts). */
export const FIRST_NAMES = [
  "Alice", "Alva", "Anna", "Astrid", "Agnes", "Ebba", "Elsa", "Ella", "Emma", "Freja",
  "Hanna", "Ida", "Ingrid", "Julia", "Klara", "Linnea", "Lova", "Maja", "Matilda", "Moa",
  "Saga", "Sara", "Signe", "Stina", "Tove", "Vera", "Wilma", "Åsa", "Märta", "Karin",
  "Adam", "Albin", "Alexander", "Anton", "Arvid", "Axel", "Björn", "Carl", "Elias", "Emil",
  "Erik", "Filip", "Gustav", "Hugo", "Isak", "Jakob", "Johan", "Karl", "Lars", "Leo",
  "Liam", "Lucas", "Magnus", "Nils", "Noah", "Oliver", "Olle", "Oscar", "Per", "Sixten",
  "Sven", "Theo", "Viktor", "William", "Örjan", "Göran", "Måns", "Malte", "Ture", "Vincent",
] as const;

export const LAST_NAMES = [
  "Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson",
  "Svensson", "Gustafsson", "Pettersson", "Jonsson", "Jansson", "Hansson", "Bengtsson", "Jönsson",
  "Lindberg", "Jakobsson", "Magnusson", "Olofsson", "Lindström", "Lindqvist", "Lindgren", "Berg",
  "Axelsson", "Bergström", "Lundberg", "Lind", "Lundgren", "Lundqvist", "Mattsson", "Berglund",
  "Fredriksson", "Sandberg", "Henriksson", "Forsberg", "Sjöberg", "Wallin", "Engström", "Eklund",
  "Danielsson", "Lundin", "Håkansson", "Björk", "Bergman", "Gunnarsson", "Holm", "Wikström",
  "Samuelsson", "Isaksson", "Fransson", "Bergqvist", "Nyström", "Holmberg", "Arvidsson", "Löfgren",
  "Söderberg", "Nyberg", "Blomqvist", "Claesson", "Nordström", "Mårtensson", "Lundström", "Ali",
] as const;

export const EMAIL_DOMAINS = [
  "gmail.com", "hotmail.com", "outlook.com", "live.se", "telia.com", "icloud.com", "yahoo.se", "bredband.net",
] as const;

/** The local part of an e-mail address for a name: lower case, ASCII only. */
export function emailLocalPart(firstName: string, lastName: string): string {
  return `${firstName}.${lastName}`
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/** mulberry32: a small deterministic PRNG, so the demo data looks the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Picks by weight: `[[value, weight], …]`. */
export function weighted<T>(random: Random, choices: Weighted<T>): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [value, w] of choices) {
    r -= w;
    if (r < 0) return value;
  }
  return choices[choices.length - 1]![0];
}

export type Weighted<T> = readonly (readonly [T, number])[];

export const PAYMENT_METHODS: Weighted<{ method: string; brand: string }> = [
  [{ method: "card", brand: "visa" }, 45],
  [{ method: "card", brand: "mastercard" }, 25],
  [{ method: "swish", brand: "swish" }, 20],
  [{ method: "invoice", brand: "klarna" }, 10],
];

export const ORDER_SOURCES: Weighted<string> = [
  ["web", 68],
  ["app", 20],
  ["box_office", 12],
];

export const REFUND_REASONS = [
  "Customer request",
  "Duplicate purchase",
  "Illness",
  "Changed plans",
  "Wrong ticket type",
] as const;

export function swedishMobile(random: Random): string {
  const prefix = pick(random, ["70", "72", "73", "76", "79"]);
  const digits = String(Math.floor(random() * 10_000_000)).padStart(7, "0");
  return `+46${prefix}${digits}`;
}
