import type { campaigns } from "@/db/schema";

type Discount = Pick<typeof campaigns.$inferSelect, "discountKind" | "discountValue">;

/**
 * The campaign discount in minor units for an order of `originalPrice`: a fixed amount, or a whole
 * percent rounded down (never more than the percentage), and never above the order total.
 */
export function discountOf(campaign: Discount, originalPrice: number): number {
  const raw =
    campaign.discountKind === "amount"
      ? campaign.discountValue
      : Math.floor((originalPrice * campaign.discountValue) / 100);
  return Math.max(0, Math.min(raw, originalPrice));
}
