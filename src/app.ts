import Koa from "koa";
import Router from "@koa/router";
import { basicAuth } from "./http/middleware/basic-auth.js";
import { bodyParser } from "./http/middleware/body.js";
import { credentialsFirst } from "./http/middleware/credentials-first.js";
import { errorHandler } from "./lib/error-handler.js";
import { acknowledgeAfterFanout } from "./http/middleware/acknowledge-after-fanout.js";
import { backendUnavailable } from "./http/backend-unavailable.js";
import { eventFilterBounds } from "./http/middleware/event-filters.js";
import { publicRequestCap } from "./http/middleware/public-limit.js";
import { rateLimit } from "./http/middleware/rate-limit.js";
import { requestLog } from "./http/middleware/request-log.js";
import { authenticatedRouters, publicRouters } from "./http/routes/index.js";
import { withUploadBody } from "./http/routes/uploads.js";
import { webRouter } from "./http/routes/web.js";
import { jsonPrefix, sessionOrBasicAuth } from "./http/session/session-auth.js";
import type { AppState } from "./http/state.js";
import type { Services } from "./services.js";
import { ChatMetrics, chatMetricSources } from "./metrics/chat-metrics.js";

/**
 * The chat server's Koa app: middleware order and router mounting, no I/O of its own.
 * Order: metrics → request log → error handler → credentials checked before the body → per-IP cap → body parser → public routes → (Basic auth → rate limit →
 * authenticated routes). Auth runs only for a matched route, so an unknown URL is a 404 and a
 * wrong method a 405, before credentials are looked at.
 */
export function createApp(services: Services): Koa<AppState> {
  const app = new Koa<AppState>();
  const metrics = new ChatMetrics(chatMetricSources(services));
  app.use(metrics.middleware());
  app.use(requestLog(services.logger));
  app.use(errorHandler(services.logger));
  app.use(backendUnavailable(services.logger));
  const publics = publicRouters(services);
  const web = webRouter(services);
  // Credentials before bodies: a wrong key is a 401 before anything is buffered (public and web
  // routes, which authenticate in their own ways or not at all, excepted).
  app.use(
    credentialsFirst(services.users, {
      isIntegration: (name) => services.webhooks.get(name) !== undefined,
      isPublicRoute: (path, method) => [...publics, web].some((r) => r.match(path, method).route),
    }),
  );
  app.use(acknowledgeAfterFanout(services.eventQueues));
  app.use(publicRequestCap(services.config.limits.maxPublicRequestsPerIp));
  // POST /user_uploads keeps its file part (up to --max-file-upload-mb); other bodies drop files.
  app.use(
    withUploadBody(
      bodyParser({ limitBytes: services.config.bodyLimitBytes, lenientJsonPaths: /^\/api\/v1\/external\// }),
      services.config.maxFileUploadMib,
    ),
  );
  app.use(eventFilterBounds(services.webhooks));

  const operator = new Router<AppState>();
  operator.get("/metrics", metrics.http.endpoint({ token: services.config.metricsToken }));
  app.use(operator.routes());
  for (const router of publics) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  // The web app (pages, assets, sign-in/out), then `/json/*` = the API routers by session.
  app.use(web.routes());
  app.use(web.allowedMethods());
  app.use(jsonPrefix());

  const api = new Router<AppState>();
  api.use(sessionOrBasicAuth(services.sessions, basicAuth(services.users)));
  if (services.config.rateLimit !== null) {
    api.use(rateLimit(services.config.rateLimit, services.clock, services.shared.rateLimitStore));
  }
  for (const router of authenticatedRouters(services)) api.use(router.routes());
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
