// The pages say what the daemon says: every example of examples.json,
// rendered in every shipped language by web-ui/js/words.js (the browser's
// side, with node's Intl, the same ICU data as the browser's) and by the
// daemon (render_examples, ICU), must be the same text.
//   node tests/words/parity.mjs RENDER_EXAMPLES SOURCE_DIR
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [renderExamples, sourceDir] = process.argv.slice(2);
const { Words } = await import(pathToFileURL(join(sourceDir, 'web-ui/js/words.js')).href);
const examplesPath = join(sourceDir, 'tests/words/examples.json');
const examples = JSON.parse(readFileSync(examplesPath, 'utf8'));
const daemon = JSON.parse(execFileSync(renderExamples, [examplesPath], { encoding: 'utf8' }));

const catalogDir = join(sourceDir, 'daemon/words/catalogs');
const english = JSON.parse(readFileSync(join(catalogDir, 'en.json'), 'utf8'));
let compared = 0;
const differences = [];
for (const file of readdirSync(catalogDir).filter((f) => f.endsWith('.json')).sort()) {
  const language = file.slice(0, -5);
  const words = new Words(language, JSON.parse(readFileSync(join(catalogDir, file), 'utf8')), english);
  for (const [code, cases] of Object.entries(examples)) {
    cases.forEach((args, i) => {
      const page = words.say({ code, args });
      const theirs = daemon[language]?.[code]?.[i];
      compared += 1;
      if (page !== theirs) differences.push(`${language} ${code} #${i + 1}:\n  page:   ${page}\n  daemon: ${theirs}`);
    });
  }
}
if (differences.length) {
  console.error(`${differences.length} of ${compared} renderings differ:\n${differences.join('\n')}`);
  process.exit(1);
}
console.log(`words parity: ${compared} renderings the same on the pages and in the daemon`);
