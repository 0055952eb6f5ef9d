import { closeDatabase, databaseHandle } from "./client";
import { runMigrations } from "./migrator";
import { demoBanner } from "@/lib/demo/banner";
import { seedDemoData } from "@/lib/demo/seed-demo";
import { toPublicId } from "@/lib/ids";
import { refuseIfServerHoldsDatabase } from "@/lib/cli/server-pid";

refuseIfServerHoldsDatabase();
const handle = databaseHandle();
try {
  await runMigrations(handle);
  const demo = await seedDemoData();
  console.log(
    demo.created
      ? `Demo organization ${toPublicId("organization", demo.organizationId)} created.`
      : `Demo organization ${toPublicId("organization", demo.organizationId)} already exists; demo key checked.`,
  );
  console.log(demoBanner(demo));
} finally {
  await closeDatabase();
}
