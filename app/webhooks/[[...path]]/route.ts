import { unknownPaths } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = unknownPaths();
