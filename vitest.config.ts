import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,worker,scripts,db,components}/**/*.test.ts", "sdk/src/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**", "sdk/dist/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "int",
          include: ["{lib,worker,scripts,db}/**/*.int.test.ts", "sdk/src/**/*.int.test.ts"],
          exclude: ["node_modules/**"],
          globalSetup: ["scripts/test/global-setup.ts"],
          testTimeout: 60_000,
          // Above startWorker's own bound (TEST_WORKER_READY_MS, 180 s), so a worker that never gets ready
          // fails with its output rather than as a bare hook timeout.
          hookTimeout: 200_000,
          // Files share one server and database but each works in its own project. Three at a time on 2 cores:
          // the files wait on workers, mail and timers more than they compute, and a fourth overloaded the machine.
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:scale`: several web and worker processes of their own per file; one file at a time.
          name: "scale",
          include: ["test/scale/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
