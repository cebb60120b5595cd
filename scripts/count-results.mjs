// Prints "N passed, N failed[, N skipped]" from vitest's JSON report, the
// one line CI reads. Exits 1 when the report is missing or shows failures.
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? ".reports/vitest.json";
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch (error) {
  console.error(
    `count-results: no test report at ${file} (${error.code ?? error.message}); the test run did not finish`,
  );
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// Suites that failed to load count as failures too: their tests never ran.
const failedSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === "failed" && (suite.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + failedSuites;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
