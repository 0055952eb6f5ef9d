import { unknownPaths } from "@/lib/http/route-exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPaths();
