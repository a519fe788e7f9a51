import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

const layer = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

// Which way imports point (README "Architecture"). Each folder gets one list: a later block replaces
// an earlier one's list for the files it matches, so the lists repeat what they inherit.
const NO_KOA = {
  group: ["koa", "@koa/*", "**/http/**"],
  message: "The domain and the store never import Koa or the HTTP layer.",
};
const NO_INTEGRATION = {
  regex: "(^|/)integrations/",
  message:
    "src/ reaches integrations through a port wired in src/services.ts (only src/domain/webhooks imports integrations/kit).",
};
const NO_DB = {
  group: ["**/store/db.js"],
  message: "The domain receives its repositories from the composition root (src/services.ts).",
};
const ONLY_THE_KIT = { ...NO_INTEGRATION, regex: "(^|/)integrations/(?!kit/)" };
const ONLY_SHARED_SRC = {
  regex: "(^|/)src/(?!errors\\.js$|lib/)",
  message: "Integrations and bots import nothing of src/ but src/errors.ts and src/lib/.",
};
/** The composition root and the command-line tools: the only files of src/ that wire plugins in. */
const COMPOSITION_ROOT = [
  "src/services.ts",
  "src/server.ts",
  "src/serve-command.ts",
  "src/cli.ts",
  "src/tools/**",
];

export default tseslint.config(
  { ignores: ["dist/**", "coverage/**", "node_modules/**", "data/**", "bin/**", "*.config.js"] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-console": "error",
    },
  },
  { files: ["src/**"], ignores: COMPOSITION_ROOT, rules: layer(NO_INTEGRATION) },
  { files: ["src/store/**"], rules: layer(NO_KOA, NO_INTEGRATION) },
  { files: ["src/domain/**"], rules: layer(NO_KOA, NO_INTEGRATION, NO_DB) },
  { files: ["src/domain/webhooks/**"], rules: layer(NO_KOA, ONLY_THE_KIT, NO_DB) },
  { files: ["integrations/**"], rules: layer(ONLY_SHARED_SRC) },
  { files: ["bots/**"], rules: layer(ONLY_SHARED_SRC) },
  {
    files: ["**/*.test.ts", "test/**", "bench/**", "scripts/**"],
    rules: {
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-console": "off",
    },
  },
);
