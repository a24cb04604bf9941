import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,worker,scripts,db}/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "int",
          include: ["{lib,worker,scripts,db}/**/*.int.test.ts"],
          exclude: ["node_modules/**"],
          globalSetup: ["scripts/test/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Files share one server and database but each works in its own project; two at a time suits 2 cores.
          maxWorkers: 2,
        },
      },
    ],
  },
});
