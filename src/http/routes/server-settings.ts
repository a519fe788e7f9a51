import Router from "@koa/router";
import type { Services } from "../../services.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** GET /api/v1/server_settings: public, no authentication. */
export function serverSettingsRouter(services: Pick<Services, "config" | "users">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });
  router.get("/server_settings", async (ctx) => {
    const realm = await services.users.realm();
    const { config } = services;
    ctx.body = success({
      authentication_methods: {
        azuread: false,
        dev: false,
        email: true,
        github: false,
        google: false,
        ldap: false,
        password: true,
        remoteuser: false,
        saml: false,
        "openid connect": false,
      },
      external_authentication_methods: [],
      zulip_version: config.zulipVersion,
      zulip_feature_level: config.zulipFeatureLevel,
      zulip_merge_base: config.zulipVersion,
      service_version: config.zulipVersion,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_uri: config.externalUrl,
      realm_url: config.externalUrl,
      realm_name: realm.name,
      realm_icon: `${config.externalUrl}/static/images/logo/zulip-icon-128x128.png`,
      realm_description: realm.description === "" ? "" : `<p>${escapeHtml(realm.description)}</p>`,
      realm_web_public_access_enabled: false,
    });
  });
  return router;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
