import { option, parse } from "./define-integration.js";
import type { OptionSpec } from "./define-integration.js";

/**
 * Branch filtering, shared by every Git integration (Zulip's `branches` URL parameter): a
 * comma-separated list of branch names; a push to a branch not in it posts nothing and is answered
 * with success. An absent or empty list filters nothing.
 */

/** The `branches` option, as every Git integration declares it. */
export const branchesOption: OptionSpec<string[]> = option(
  "Only notify for pushes to these branches (comma-separated)",
  parse.csvList,
);

/** Whether a push to `branch` is posted under the `branches` option (Zulip's is_branch_name_notifiable). */
export function isBranchNotifiable(branch: string, branches: readonly string[] | undefined): boolean {
  return branches === undefined || branches.length === 0 || branches.includes(branch);
}
