import type { Integration } from "./kit/index.js";
import bitbucket2 from "./bitbucket2/index.js";
import gitea from "./gitea/index.js";
import github, { githubsponsors } from "./github/index.js";
import gitlab from "./gitlab/index.js";
import helloworld from "./helloworld/index.js";

/**
 * The registry of incoming-webhook integrations: the one shared line a new integration adds.
 * test/integrations/registry.test.ts fails on a folder that is not listed here.
 */
export const integrations: readonly Integration[] = [
  helloworld,
  github,
  githubsponsors,
  gitea,
  gitlab,
  bitbucket2,
];
