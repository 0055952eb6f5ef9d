import { deliverWebhook } from "./deliver-webhook";
import { sweepDeliveries } from "./sweep-deliveries";

export const functions = [deliverWebhook, sweepDeliveries];
