/** @type {import('jest').Config} */
export default {
  testEnvironment: "node",
  // Builds dist/server when a source changed: the tests that spawn bin/ run the code they test.
  globalSetup: "./bin/build.js",
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "typescript" }, target: "es2022" },
        module: { type: "es6" },
      },
    ],
  },
  testMatch: ["**/?(*.)test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/"],
  testTimeout: 60000,
};
