import { z } from "zod";
import { countryCodeSchema } from "@/lib/catalog/venue-schemas";

const line = (label: string, max: number) =>
  z.string().trim().min(1, `Enter the ${label}`).max(max, `At most ${max} characters`);

/** The create-venue form, flat (one input per field); its output is the POST /v1/venues body. */
export const venueFormSchema = z
  .strictObject({
    name: line("name", 200),
    street: line("street", 200),
    city: line("city", 100),
    postal_code: line("postal code", 20),
    country: z.string().trim().toUpperCase().pipe(countryCodeSchema),
    capacity: z.string().trim().regex(/^\d{1,7}$/, "Enter a whole number").transform(Number).pipe(z.int().min(1, "At least 1").max(1_000_000, "At most 1,000,000")),
  })
  .transform(({ street, city, postal_code, country, ...venue }) => ({ ...venue, address: { street, city, postal_code, country } }));
