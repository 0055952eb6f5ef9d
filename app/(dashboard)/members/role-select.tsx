import { USER_ROLES, type Role } from "@/db/schema/roles";
import { inputClasses } from "../_components/input-classes";

/** The roles the signed-in user may hand out: only owners make owners. */
export function RoleSelect({ id, defaultValue, ownerChoice }: { id: string; defaultValue: Role; ownerChoice: boolean }) {
  return (
    <select id={id} name="role" defaultValue={defaultValue} className={inputClasses()}>
      {USER_ROLES.filter((role) => ownerChoice || role !== "owner").map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}
