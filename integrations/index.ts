import type { Integration } from "./kit/index.js";
import helloworld from "./helloworld/index.js";

/**
 * The registry of incoming-webhook integrations: the one shared line a new integration adds.
 * test/integrations/registry.test.ts fails on a folder that is not listed here.
 */
export const integrations: readonly Integration[] = [helloworld];
