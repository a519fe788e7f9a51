import Router from "@koa/router";
import type { DraftInput } from "../../domain/drafts/drafts-service.js";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import { checkDict, checkInt, checkList, checkString, int, jsonOf, parseArgs } from "../params.js";
import type { Check } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

const DRAFT_TYPES = ["", "stream", "private"] as const;

/**
 * Zulip's draft_dict_validator (check_dict_only): `type`, `to`, `topic`, `content` required,
 * `timestamp` optional, nothing else; with Zulip's texts, naming the value as `drafts[0]["to"]`.
 */
const checkDraft: Check<DraftInput> = (value, name) => {
  const dict = checkDict(value, name);
  const key = (k: string): unknown => {
    if (!Object.hasOwn(dict, k)) throw new JsonableError(`${k} key is missing from ${name}`);
    return dict[k];
  };
  const type = key("type");
  if (typeof type !== "string" || !(DRAFT_TYPES as readonly string[]).includes(type)) {
    throw new JsonableError(`Invalid ${name}["type"]`);
  }
  const to = checkList(checkInt)(key("to"), `${name}["to"]`);
  const topic = checkString(key("topic"), `${name}["topic"]`);
  const content = checkString(key("content"), `${name}["content"]`);
  if (content.trim() === "") throw new JsonableError(`${name}["content"] cannot be blank.`);
  let timestamp: number | undefined;
  if (Object.hasOwn(dict, "timestamp")) {
    const t = dict["timestamp"];
    if (typeof t !== "number" || !Number.isFinite(t)) {
      throw new JsonableError(`${name}["timestamp"] is not an allowed_type`);
    }
    timestamp = t;
  }
  const extra = Object.keys(dict).filter((k) => !["type", "to", "topic", "content", "timestamp"].includes(k));
  if (extra.length > 0) throw new JsonableError(`Unexpected arguments: ${extra.join(", ")}`);
  return { type: type as DraftInput["type"], to, topic, content, timestamp };
};

/** GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}. */
export function draftsRouter(services: Pick<Services, "drafts">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/drafts" });
  const drafts = services.drafts;
  const draftId = (raw: string | undefined): number => int(raw ?? "", "draft_id");

  router.get("/", async (ctx) => {
    const list = await drafts.list(ctx.state.user);
    ctx.body = success({ count: list.length, drafts: list });
  });

  router.post("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, { drafts: jsonOf(checkList(checkDraft)) });
    ctx.body = success({ ids: await drafts.create(ctx.state.user, args.drafts) });
  });

  router.patch("/:draft_id", async (ctx) => {
    const id = draftId(ctx.params["draft_id"]);
    const args = parseArgs(ctx.state.params, { draft: jsonOf(checkDraft) });
    await drafts.edit(ctx.state.user, id, args.draft);
    ctx.body = success();
  });

  router.delete("/:draft_id", async (ctx) => {
    await drafts.delete(ctx.state.user, draftId(ctx.params["draft_id"]));
    ctx.body = success();
  });

  return router;
}
