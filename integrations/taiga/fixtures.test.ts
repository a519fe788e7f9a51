import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import taiga from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's taiga/tests.py).
describe("taiga: Zulip's other fixtures", () => {
  it("test_taiga_epic_changed_blocked", () => {
    expectFixture(
      taiga,
      here,
      "epic__changed_blocked",
      {
        topic: "subject",
        body: "[Eeshan Garg](https://tree.taiga.io/profile/eeshangarg) blocked epic **Zulip is awesome!**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_epic_changed_description", () => {
    expectFixture(
      taiga,
      here,
      "epic__changed_description",
      {
        topic: "subject",
        body: "[Eeshan Garg](https://tree.taiga.io/profile/eeshangarg) updated description of epic **Zulip is great!**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_epic_changed_unassigned", () => {
    expectFixture(
      taiga,
      here,
      "epic__changed_unassigned",
      {
        topic: "subject",
        body: "[Eeshan Garg](https://tree.taiga.io/profile/eeshangarg) unassigned epic **Zulip is awesome!**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_epic_deleted", () => {
    expectFixture(
      taiga,
      here,
      "epic__deleted_zulip",
      {
        topic: "subject",
        body: "[Eeshan Garg](https://tree.taiga.io/profile/eeshangarg) deleted epic **Zulip is great!**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_issue_changed_assigned", () => {
    expectFixture(
      taiga,
      here,
      "issue__changed_assigned",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) assigned issue **New issue** to TomaszKolek.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_issue_changed_blocked", () => {
    expectFixture(
      taiga,
      here,
      "issue__changed_blocked",
      {
        topic: "subject",
        body: "[Aditya Verma](https://tree.taiga.io/profile/orientor) blocked issue [Issues](https://tree.taiga.io/project/orientor-sd/issue/49).",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_issue_changed_reassigned", () => {
    expectFixture(
      taiga,
      here,
      "issue__changed_reassigned",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) reassigned issue **New issue** from TomaszKolek to HanSolo.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_issue_changed_severity", () => {
    expectFixture(
      taiga,
      here,
      "issue__changed_severity",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) changed severity of issue **New issue** from Normal to Minor.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_issue_changed_status", () => {
    expectFixture(
      taiga,
      here,
      "issue__changed_status",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) changed status of issue **New issue** from New to In progress.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_issue_created", () => {
    expectFixture(
      taiga,
      here,
      "issue__created",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) created issue **New issue**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_relateduserstory_created_link", () => {
    expectFixture(
      taiga,
      here,
      "relateduserstory__created_link",
      {
        topic: "subject",
        body: "[Aditya Verma](https://tree.taiga.io/profile/orientor) added a related user story [Nice Issue](https://tree.taiga.io/project/orientor-sd/us/54) to the epic [ASAS](https://tree.taiga.io/project/orientor-sd/epic/42).",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_relateduserstory_deleted", () => {
    expectFixture(
      taiga,
      here,
      "relateduserstory__deleted_zulip",
      {
        topic: "subject",
        body: "[Eeshan Garg](https://tree.taiga.io/profile/eeshangarg) removed a related user story **A related user story, which is epic** from the epic **This is Epic!**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_task_changed_blocked", () => {
    expectFixture(
      taiga,
      here,
      "task__changed_blocked",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) blocked task **New Task**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_task_changed_due_date", () => {
    expectFixture(
      taiga,
      here,
      "task__changed_due_date",
      {
        topic: "subject",
        body: "[Aditya Verma](https://tree.taiga.io/profile/orientor) changed due date of task [nice task](https://tree.taiga.io/project/orientor-sd/task/56) from 2020-02-22 to 2020-02-15.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_task_changed_status", () => {
    expectFixture(
      taiga,
      here,
      "task__changed_status",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) changed status of task **New Task** from New to In progress.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_task_deleted", () => {
    expectFixture(
      taiga,
      here,
      "task__deleted",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) deleted task **New Task**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_assigned", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_assigned",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) assigned user story **UserStory** to TomaszKolek.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_new_due_date", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_new_due_date",
      {
        topic: "subject",
        body: "[Aditya Verma](https://tree.taiga.io/profile/orientor) set due date of user story [random](https://tree.taiga.io/project/orientor-sd/us/58) to 2020-02-15.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_reassigned", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_reassigned",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) reassigned user story **UserStory** from TomaszKolek to HanSolo.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_reopened", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_reopened",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) changed status of user story **UserStory** from Done to Ready.\n[TomaszKolek](https://tree.taiga.io/profile/kolaszek) reopened user story **UserStory**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_subject", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_subject",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) renamed user story from UserStory to **UserStoryNewSubject**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_unassigned", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_unassigned",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) unassigned user story **UserStory**.",
      },
      { topic: "subject" },
    );
  });
  it("test_taiga_userstory_changed_unblocked", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_unblocked",
      {
        topic: "subject",
        body: "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) unblocked user story **UserStory**.",
      },
      { topic: "subject" },
    );
  });
});
