import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import linear from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's linear/tests.py;
// the project tests are from its 2026 tests.py).
describe("linear: Zulip's other fixtures", () => {
  it("test_comment_create", () => {
    expectFixture(linear, here, "comment__create_zulip", {
      topic: "Issue: Thorough Impact Analysis and Cost Realization",
      body: "Satyam Bansal [commented](https://linear.app/webhooks/issue/WEB-46#comment-c7cafc52) on issue **Thorough Impact Analysis and Cost Realization**:\n~~~ quote\nPerforming a thorough impact analysis and cost realization is a crucial step in responding to any system outage or incident. By examining the extent of the outage, the affected systems or services, the number of users impacted, and any error messages or logs generated during the incident, we can gain a comprehensive understanding of the scope of the incident.\n\nThis information can then be used to prioritize the resolution efforts and minimize the impact on our organization's operations. Additionally, cost realization allows us to evaluate the financial impact of the outage on our organization and make informed decisions regarding resource allocation for future incidents.\n\nOverall, conducting a thorough impact analysis and cost realization can help us effectively manage incidents and prevent similar issues from occurring in the future.\n~~~",
    });
  });
  it("test_comment_update", () => {
    expectFixture(linear, here, "comment__update_zulip", {
      topic: "Issue: Thorough Impact Analysis and Cost Realization",
      body: "Satyam Bansal [updated comment](https://linear.app/webhooks/issue/WEB-46#comment-c7cafc52) on issue **Thorough Impact Analysis and Cost Realization**:\n~~~ quote\nInvalid response to any system outage or incident, it is essential to perform a comprehensive impact analysis and cost evaluation. By examining factors such as the extent of the outage, the affected systems or services, the number of users affected, and any error messages or logs generated during the incident, we can gain a detailed understanding of the incident's scope.\n\nThis information is then critical in prioritizing resolution efforts and reducing the impact on our organization's operations. Additionally, conducting cost realization allows us to assess the financial implications of the outage and make informed decisions about allocating resources for future incidents.\n\nOverall, performing a thorough impact analysis and cost realization is an effective way to manage incidents and prevent similar issues from recurring.\n~~~",
    });
  });
  it("test_issue_create_simple_without_description", () => {
    expectFixture(linear, here, "issue__create_simple_without_description", {
      topic: "Issue: Drop-down overflow in the select menu.",
      body: "[Issue](https://linear.app/webhooks/issue/WEB-42/drop-down-overflow-in-the-select-menu) was created in team Webhooks.\nPriority: High, Status: Todo.",
    });
  });
  it("test_issue_remove", () => {
    expectFixture(linear, here, "issue__remove_zulip", {
      topic: "Issue: This is regarding the outage that we faced on 11/1...",
      body: "This issue has been removed from team Webhooks.",
    });
  });
  it("test_issue_update", () => {
    expectFixture(linear, here, "issue__update_zulip", {
      topic: "Issue: This is regarding the outage that we faced on 11/1...",
      body: "[Issue](https://linear.app/webhooks/issue/WEB-44/this-is-regarding-the-outage-that-we-faced-on-111222-from-2000-to-2200) was updated in team Webhooks:\n~~~ quote\nThe outage that occurred on the above-mentioned date is a cause for concern as it could have significant implications for the organization and its users. A prolonged outage can result in lost revenue, productivity, and customer confidence. Therefore, it is essential to conduct a detailed assessment and analysis to identify the root cause of the outage and take appropriate measures to prevent its recurrence.\n\nThe analysis process may involve the use of specialized tools and techniques to help pinpoint the exact cause of the outage. Once the root cause has been identified, the organization can take steps to implement effective solutions that can mitigate the risk of a similar outage happening in the future. The assessment and analysis process will help the organization to develop a more robust and reliable IT infrastructure that can provide uninterrupted services to its users.\n~~~\n\nPriority: Urgent, Assignee: Satyam Bansal, Status: In Progress.",
    });
  });
  it("test_project_create_without_description", () => {
    expectFixture(linear, here, "project__create_without_description", {
      topic: "Project: Project-Manhattan",
      body: "Dhruv Shetty created project [Project-Manhattan](https://linear.app/zulipdhruv/project/project-manhattan-9719af1a1893)\n**Status:** Backlog",
    });
  });
  it("test_project_update_priority", () => {
    expectFixture(linear, here, "project__update_priority", {
      topic: "Project: Zulip-Project",
      body: "Dhruv Shetty updated project [Zulip-Project](https://linear.app/zulipdhruv/project/zulip-project-532c1333013b).\nPriority is now set to High.",
    });
  });
  it("test_project_update_rename", () => {
    expectFixture(linear, here, "project__update_rename", {
      topic: "Project: Zulip-Test-Project",
      body: "Dhruv Shetty updated project [Zulip-Test-Project](https://linear.app/zulipdhruv/project/zulip-test-project-532c1333013b).\nRenamed to Zulip-Test-Project.",
    });
  });
  it("test_project_update_status", () => {
    expectFixture(linear, here, "project__update_status", {
      topic: "Project: Zulip-Test-Project",
      body: "Dhruv Shetty updated project [Zulip-Test-Project](https://linear.app/zulipdhruv/project/zulip-test-project-532c1333013b).\nProject status is now In Progress.",
    });
  });
  it("test_project_update_lead_set", () => {
    expectFixture(linear, here, "project__update_lead_set", {
      topic: "Project: Zulip-Test-Project",
      body: "Dhruv Shetty updated project [Zulip-Test-Project](https://linear.app/zulipdhruv/project/zulip-test-project-532c1333013b).\nDhruv Shetty is now the project lead.",
    });
  });
  it("test_project_update_target_date_preponed", () => {
    expectFixture(linear, here, "project__update_target_date_preponed", {
      topic: "Project: Zulip-Test-Project",
      body: "Dhruv Shetty updated project [Zulip-Test-Project](https://linear.app/zulipdhruv/project/zulip-test-project-532c1333013b).\nTarget date is preponed to 2026-05-29.",
    });
  });
  it("test_project_update_target_date_set", () => {
    expectFixture(linear, here, "project__update_target_date_set", {
      topic: "Project: Project Zulip",
      body: "Dhruv Shetty updated project [Project Zulip](https://linear.app/zulipdhruv/project/project-zulip-c65c2156ca87).\nTarget date is set to 2026-05-30.",
    });
  });
  it("test_project_update_description", () => {
    expectFixture(linear, here, "project__update_description", {
      topic: "Project: Zulip-Test-Project",
      body: "Dhruv Shetty updated project [Zulip-Test-Project](https://linear.app/zulipdhruv/project/zulip-test-project-532c1333013b).\nDescription is updated.",
    });
  });
  it("test_project_remove", () => {
    expectFixture(linear, here, "project__remove_zulip", {
      topic: "Project: Project-Zulip",
      body: "Dhruv Shetty removed project **Project-Zulip**.",
    });
  });
  it("test_projectUpdate_create", () => {
    expectFixture(linear, here, "project_update__create_zulip", {
      topic: "Project: Zulip-terminal",
      body: "Dhruv Shetty [posted](https://linear.app/zulipdhruv/project/zulip-terminal-5bfd1327f54b/activity#project-update-bd310e45) a status update on **Zulip-terminal** (health: At Risk):\n~~~ quote\nThis is a project status update\n**Imported User**[7:03 AM](<http://localhost:9991/#narrow/channel/10-design/topic/.E2.9C.94.20NEW.20router.20wasn.27t.20de-duping.20slowly/near/88>)\n\nExisting robust and atomic methodologies use suffix trees to evaluate trainable theory. The basic tenet of this approach is the development of checksums. Despite the fact that conventional wisdom states that this obstacle is regularly overcame by the deployment of the World Wide Web, we believe that a different approach is necessary.\n~~~",
    });
  });
  it("test_projectUpdate_remove", () => {
    expectFixture(linear, here, "project_update__remove", {
      topic: "Project: Project-Zulip",
      body: "Dhruv Shetty removed a status update on **Project-Zulip**.",
    });
  });
  it("test_project_auto_update_after_create_is_suppressed", () => {
    expectFixture(linear, here, "project__auto_update_after_project_create", null);
  });
});
