import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createEvent } from "@/lib/catalog/events";
import { createVenue, deleteVenue } from "@/lib/catalog/venues";
import { createUser } from "@/lib/auth/users";
import { settleForm, type FormActionSpec } from "@/lib/dashboard/form-submission";
import { submittedValues, type SavedFormState } from "@/lib/dashboard/forms";
import { apiErrorFromDatabase } from "@/lib/http/db-errors";
import { ApiError } from "@/lib/http/errors";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** The message the API's error body carries for the same thrown error (lib/http/route.ts's errorResponse mapping). */
async function apiMessage(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const apiError = error instanceof ApiError ? error : apiErrorFromDatabase(error);
    if (!apiError) throw error;
    return apiError.message;
  }
  throw new Error("expected the call to fail");
}

const VENUE = { name: "Hall", address: { street: "Gatan 1", city: "Malmö", postal_code: "211 20", country: "SE" }, capacity: 100 };

describe("dashboard form actions: parse, call and the API's error mapping in one place", () => {
  useTestDatabase();

  it("shows a unique-key clash with the API's 409 message at the form, keeping the input, instead of throwing", async () => {
    const { organization, user } = await createTenant();
    const session = { organizationId: organization.id, userId: user.id, email: user.email, sessionVersion: 0, role: user.role };
    const spec: FormActionSpec<{ email: string }, SavedFormState> = {
      schema: z.strictObject({ email: z.string().min(1, "Enter an email address") }),
      permission: "members",
      unknown: "stale",
      keep: (input) => ({ values: submittedValues(input) }),
      run: async (current, { email }) => {
        const created = await createUser({ organizationId: current.organizationId, email, password: "a long password" });
        return { saved: { id: created.id, name: email } };
      },
    };
    const clash = () => createUser({ organizationId: organization.id, email: user.email, password: "a long password" });
    const outcome = await settleForm(spec, session, form({ email: user.email }));
    expect(outcome).toEqual({
      ok: false,
      state: { values: { email: user.email }, error: await apiMessage(clash), fieldErrors: {} },
    });
    expect(outcome.state.error).toBe("The resource conflicts with an existing one");

    const blank = await settleForm(spec, session, form({ email: "" }));
    expect(blank).toEqual({ ok: false, state: { values: { email: "" }, fieldErrors: { email: "Enter an email address" } } });
  });

  it("answers a domain refusal with the API's message, and a stale hidden id with the action's own", async () => {
    const { organization, user } = await createTenant();
    const session = { organizationId: organization.id, userId: user.id, email: user.email, sessionVersion: 0, role: user.role };
    const venue = await createVenue(organization.id, VENUE);
    await createEvent(organization.id, {
      name: "Gig",
      venue_id: venue.id,
      starts_at: new Date("2030-01-01T18:00:00Z"),
      ends_at: new Date("2030-01-01T22:00:00Z"),
    });
    const spec: FormActionSpec<{ id: string }, SavedFormState> = {
      schema: z.strictObject({ id: z.string().min(1) }),
      permission: "catalog",
      unknown: "Unknown venue; reload the page",
      run: async (current, { id }) => {
        await deleteVenue(current.organizationId, id);
        return {};
      },
    };
    const refused = await settleForm(spec, session, form({ id: venue.id }));
    expect(refused.ok).toBe(false);
    expect(refused.state.error).toBe(await apiMessage(() => deleteVenue(organization.id, venue.id)));
    expect(await settleForm(spec, session, form({ id: "" }))).toEqual({ ok: false, state: { error: "Unknown venue; reload the page" } });
  });
});
