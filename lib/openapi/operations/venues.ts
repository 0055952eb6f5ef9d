import { createVenueSchema, updateVenueSchema, venueListSchema, venueSchema } from "@/lib/catalog/venue-schemas";
import { defineResource } from "@/lib/http/operation";
import { VENUE_EXAMPLE } from "./examples";

const VENUE_ID = { id: "Venue id (ven_…)" };

export const VENUES = defineResource(
  { name: "Venues", description: "Places events happen at." },
  {
    listVenues: {
      method: "get",
      path: "/v1/venues",
      summary: "List venues",
      description: "Every venue of the organization, newest first.",
      access: { scope: "venues:read" },
      response: { status: 200, description: "Every venue of the organization", schema: venueListSchema, name: "VenueList", example: { data: [VENUE_EXAMPLE] } },
    },
    createVenue: {
      method: "post",
      path: "/v1/venues",
      summary: "Create a venue",
      description: "A venue with its postal address and capacity; events then name it by venue_id.",
      access: { scope: "venues:write" },
      body: createVenueSchema,
      bodyExample: {
        name: "Stockholm Arena",
        address: { street: "Arenavägen 1", city: "Stockholm", postal_code: "121 77", country: "SE" },
        capacity: 16_000,
      },
      response: { status: 201, description: "The created venue", schema: venueSchema, name: "Venue", example: VENUE_EXAMPLE },
      location: "/v1/venues/{id}",
    },
    getVenue: {
      method: "get",
      path: "/v1/venues/{id}",
      summary: "Get a venue",
      description: "One venue of the organization.",
      access: { scope: "venues:read" },
      params: VENUE_ID,
      response: { status: 200, description: "The venue", schema: venueSchema, name: "Venue", example: VENUE_EXAMPLE },
    },
    updateVenue: {
      method: "patch",
      path: "/v1/venues/{id}",
      summary: "Update a venue",
      description: "Any subset of the fields; address members given are merged into the stored address.",
      access: { scope: "venues:write" },
      params: VENUE_ID,
      body: updateVenueSchema,
      bodyExample: { capacity: 18_000, address: { postal_code: "121 78" } },
      response: { status: 200, description: "The updated venue", schema: venueSchema, name: "Venue", example: { ...VENUE_EXAMPLE, capacity: 18_000, address: { ...VENUE_EXAMPLE.address, postal_code: "121 78" } } },
    },
    deleteVenue: {
      method: "delete",
      path: "/v1/venues/{id}",
      summary: "Delete a venue",
      description: "Removes a venue that no event still uses.",
      access: { scope: "venues:write" },
      params: VENUE_ID,
      response: { status: 204, description: "Deleted" },
      conflict: "An event that is not deleted still uses the venue.",
    },
  },
);
