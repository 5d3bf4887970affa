'use strict';
// A small --flag value parser for the example scripts (no dependencies).

/** Parse `--name value` and `--name=value` pairs and bare `--flag`s into an object;
 *  unknown flags are errors. (Tokens and secrets may begin with '-': both forms take them.) */
function parseArgs(argv, known, usage) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') { console.log(usage); process.exit(0); }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const name = flag.startsWith('--') ? flag.slice(2) : null;
    if (!name || !Object.hasOwn(known, name)) fail(`unknown argument ${arg}`, usage);
    if (known[name] === 'flag') { args[name] = true; continue; }
    if (inline !== undefined) { args[name] = inline; continue; }
    if (i + 1 >= argv.length) fail(`${flag} needs a value`, usage);
    args[name] = argv[++i];
  }
  return args;
}

function fail(message, usage) {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

module.exports = { parseArgs };
