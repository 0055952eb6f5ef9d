import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { originOf } from "@/lib/audit/context";
import type { FormState } from "./forms";
import { settleForm, type FormActionSpec } from "./form-submission";
import { requireSession } from "./session";

export { FORM_PARSE, formStateOfError, type RevalidateTarget } from "./form-submission";

/**
 * The one skeleton of every dashboard form action: session → role (`permission`) → zod parse → domain call → the API's error
 * mapping → revalidate (→ redirect). Use as `export const xAction = formAction({ … })`. The spec stays readable
 * on the action (`xAction.spec`), so the role test matrix covers every action there is.
 */
export function formAction<Data, State extends FormState>(spec: FormActionSpec<Data, State>) {
  const action = async (_previous: State, formData: FormData): Promise<State> => {
    // Any signed-in role passes here; settleForm answers a missing permission at the form.
    const session = await requireSession("read");
    const outcome = await settleForm(spec, session, formData, originOf(await headers()));
    if (!outcome.ok) return outcome.state;
    for (const target of spec.revalidate?.(outcome.data, outcome.state) ?? []) {
      if (typeof target === "string") revalidatePath(target);
      else revalidatePath(target.layout, "layout");
    }
    if (spec.redirectTo) redirect(spec.redirectTo(outcome.state));
    return outcome.state;
  };
  return Object.assign(action, { spec });
}
