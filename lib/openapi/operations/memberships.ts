import { listMembershipsQuerySchema, membershipListSchema } from "@/lib/catalog/membership-schemas";
import { defineResource } from "@/lib/http/operation";
import { MEMBERSHIPS_EXAMPLE } from "./examples";

export const MEMBERSHIPS = defineResource(
  { name: "Memberships", description: "Membership members of the organization." },
  {
    listMemberships: {
      method: "get",
      path: "/v1/memberships",
      summary: "List memberships",
      description: "A page of the organization's memberships, newest first. Also granted by the customers:read scope.",
      access: { scope: "memberships:read" },
      query: listMembershipsQuerySchema,
      response: { status: 200, description: "A page of memberships", schema: membershipListSchema, name: "MembershipList", example: MEMBERSHIPS_EXAMPLE },
    },
  },
);
