import { unknownPaths } from "@/lib/http/route-exports";

export const config = { api: { bodyParser: false } };

export default unknownPaths();
