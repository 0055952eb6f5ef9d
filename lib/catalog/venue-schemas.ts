import { z } from "zod";
import { nameSchema, timestampOutSchema } from "./common-schemas";

// ISO 3166-1 alpha-2, officially assigned codes.
const COUNTRY_CODES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO " +
    "JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR " +
    "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO " +
    "RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV " +
    "TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Z]{2}$/, { message: "Must be an upper-case ISO 3166-1 alpha-2 country code, e.g. SE", abort: true })
  .refine((code) => COUNTRY_CODES.has(code), "Unknown ISO 3166-1 alpha-2 country code");

const addressLine = (max: number) => z.string().trim().min(1).max(max);

export const addressSchema = z.strictObject({
  street: addressLine(200),
  city: addressLine(100),
  postal_code: addressLine(20),
  country: countryCodeSchema,
});

export const capacitySchema = z.int().min(1).max(1_000_000);

export const createVenueSchema = z.strictObject({
  name: nameSchema,
  address: addressSchema,
  capacity: capacitySchema,
});
export type CreateVenueInput = z.output<typeof createVenueSchema>;

/** Any subset; address members given are merged into the stored address. */
export const updateVenueSchema = z.strictObject({
  name: nameSchema.optional(),
  address: addressSchema.partial().optional(),
  capacity: capacitySchema.optional(),
});
export type UpdateVenueInput = z.output<typeof updateVenueSchema>;

export const venueSchema = z.object({
  id: z.string().describe("ven_…"),
  name: z.string(),
  address: z.object({ street: z.string(), city: z.string(), postal_code: z.string(), country: z.string() }),
  capacity: z.int(),
  created_at: timestampOutSchema,
});
export type Venue = z.output<typeof venueSchema>;

export const venueListSchema = z.object({ data: z.array(venueSchema) });
