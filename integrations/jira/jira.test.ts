import { describeCases } from "../kit/testing.js";
import jira from "./index.js";

// Zulip's test realm, against which the cases were recorded: assignees are named after its users.
const realmUsers = { "othello@zulip.com": "Othello, the Moor of Venice" };

describeCases(jira, new URL("./fixtures/cases", import.meta.url), undefined, { realmUsers });
