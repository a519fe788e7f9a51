import Router from "@koa/router";
import { IntegrationDocs } from "../../domain/webhooks/integration-docs.js";
import type { Services } from "../../services.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/**
 * Read-only documentation of one integration for the web app's integration page (also under
 * `/json`): its `doc.md` as HTML and its fixtures, each fixture with the headers and exact body a
 * "send a test payload" button posts. Options and events are in the public `GET /integrations`.
 */
export function integrationDocsRouter(
  services: Pick<Services, "integrationFolder" | "webhooks">,
): Router<AppState> {
  const docs = new IntegrationDocs(
    (name) => services.webhooks.get(name),
    (name) => services.integrationFolder(name),
  );
  const router = new Router<AppState>({ prefix: "/api/v1" });
  router.get("/integrations/:name", (ctx) => {
    const doc = docs.doc(ctx.params["name"] ?? "");
    ctx.body = success({ name: doc.name, doc_html: doc.docHtml, fixtures: doc.fixtures });
  });
  router.get("/integrations/:name/fixtures/:fixture", (ctx) => {
    const payload = docs.fixture(ctx.params["name"] ?? "", ctx.params["fixture"] ?? "");
    ctx.body = success({ headers: payload.headers, body: payload.body });
  });
  return router;
}
