'use strict';
// A small --flag value parser for the example scripts (no dependencies).

/** Parse `--name value` pairs and bare `--flag`s into an object; unknown flags are errors. */
function parseArgs(argv, known, usage) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') { console.log(usage); process.exit(0); }
    const name = flag.startsWith('--') ? flag.slice(2) : null;
    if (!name || !(name in known)) fail(`unknown argument ${flag}`, usage);
    if (known[name] === 'flag') { args[name] = true; continue; }
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
