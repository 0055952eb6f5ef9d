/** What the demo organization sells: its venues, events with their ticket types, and campaigns (Swedish). */

export const VENUES = [
  { name: "Sjöbergs Konserthall", street: "Sveavägen 84", city: "Stockholm", postalCode: "113 59", capacity: 1800 },
  { name: "Hamnmagasinet", street: "Packhusplatsen 6", city: "Göteborg", postalCode: "411 13", capacity: 950 },
  { name: "Kulturhuset Norrsken", street: "Bergsgatan 20", city: "Malmö", postalCode: "211 54", capacity: 1200 },
  { name: "Fyrisparkens Scen", street: "Svartbäcksgatan 1", city: "Uppsala", postalCode: "753 20", capacity: 600 },
] as const;

export type TicketDef = readonly [name: string, category: string, priceOre: number, quantityTotal: number];

const STANDARD_TICKETS: TicketDef[] = [
  ["Ståplats", "Admission", 34_500, 1_400],
  ["Sittplats", "Seated", 54_500, 700],
  ["VIP", "VIP", 119_500, 90],
];

export const EVENTS: {
  name: string;
  description: string;
  venue: number;
  daysFromNow: number;
  hours: number;
  status: "published" | "draft";
  popularity: number;
  tickets: TicketDef[];
}[] = [
  { name: "Jazz på Kajen", description: "En kväll med nordisk jazz vid vattnet.", venue: 1, daysFromNow: -320, hours: 4, status: "published", popularity: 3, tickets: [["Entré", "Admission", 29_500, 900], ["Bord för två", "Seated", 89_000, 60]] },
  { name: "Stand-up: Kvällens skratt", description: "Fem komiker, en kväll.", venue: 0, daysFromNow: -250, hours: 3, status: "published", popularity: 4, tickets: STANDARD_TICKETS },
  { name: "Kammarmusik i skymningen", description: "Stråkkvartetter av Stenhammar och Berwald.", venue: 3, daysFromNow: -180, hours: 2, status: "published", popularity: 2, tickets: [["Ordinarie", "Seated", 32_000, 500], ["Student", "Seated", 16_000, 120]] },
  { name: "Sommarnatt på Slottsbacken", description: "Utomhuskonsert med svenska popartister.", venue: 0, daysFromNow: -110, hours: 5, status: "published", popularity: 5, tickets: STANDARD_TICKETS },
  { name: "Höstrock i Malmö", description: "Rockfestival över två scener.", venue: 2, daysFromNow: -45, hours: 8, status: "published", popularity: 5, tickets: [["Dagsbiljett", "Admission", 69_500, 1_800], ["VIP", "VIP", 149_500, 120]] },
  { name: "Luciakonserten", description: "Traditionell luciakonsert med kör och orkester.", venue: 3, daysFromNow: 12, hours: 2, status: "published", popularity: 3, tickets: [["Vuxen", "Seated", 39_500, 500], ["Barn", "Seated", 19_500, 150]] },
  { name: "Nyårsgalan", description: "Middag, show och fyrverkerier vid tolvslaget.", venue: 0, daysFromNow: 50, hours: 6, status: "published", popularity: 4, tickets: [["Galabiljett", "Seated", 149_500, 600], ["Galabiljett med middag", "Dinner", 249_500, 250]] },
  { name: "Barnteater: Trollskogen", description: "Familjeföreställning för barn från fyra år.", venue: 1, daysFromNow: 110, hours: 2, status: "published", popularity: 2, tickets: [["Vuxen", "Seated", 22_500, 400], ["Barn", "Seated", 12_500, 400]] },
  { name: "Vinterfestivalen", description: "Programmet presenteras snart.", venue: 2, daysFromNow: 160, hours: 10, status: "draft", popularity: 0, tickets: [["Festivalpass", "Admission", 99_500, 2_000]] },
];

export const CAMPAIGNS = [
  { name: "Sommarrabatt", code: "SOMMAR50", discountKind: "amount", discountValue: 5_000, active: true },
  { name: "Tidig fågel", code: "EARLYBIRD", discountKind: "amount", discountValue: 10_000, active: true },
  { name: "Studentrabatt", code: "STUDENT10", discountKind: "percent", discountValue: 10, active: true },
  { name: "Medlemsrabatt", code: "MEDLEM20", discountKind: "percent", discountValue: 20, active: true },
  { name: "Julklapp", code: "JUL15", discountKind: "percent", discountValue: 15, active: false },
] as const;

export const MEMBERSHIP_PLANS = ["Vän", "Guld", "Student", "Familj"] as const;
