// The reference side of openskill_oracle_test.cc: rates matches with the npm
// package `openskill` (openskill.js) and prints the results.
//
//   node openskill_oracle.js NPM_PREFIX < matches.json > results.txt
//
// NPM_PREFIX is the directory `npm install --prefix` installed openskill into.
// Input: {"model": "plackett-luce" | "thurstone-mosteller-full" |
// "bradley-terry-full", "options": {...openskill.js options...},
// "matches": [{"teams": [[[mu, sigma], ...], ...], "rank": [r, ...]}, ...]}.
// Output: first line "openskill VERSION", then per match, team and player in
// order one line "mu sigma", numbers printed so that they read back exactly.
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const prefix = process.argv[2];
if (!prefix) {
  process.stderr.write('usage: node openskill_oracle.js NPM_PREFIX < matches.json\n');
  process.exit(2);
}
const requireFromPrefix = createRequire(path.join(path.resolve(prefix), 'package.json'));
const { rate } = requireFromPrefix('openskill');
const models = requireFromPrefix('openskill/models');
const version = JSON.parse(
  fs.readFileSync(path.join(path.resolve(prefix), 'node_modules', 'openskill', 'package.json'), 'utf8'),
).version;

const byName = {
  'plackett-luce': models.plackettLuce,
  'thurstone-mosteller-full': models.thurstoneMostellerFull,
  'bradley-terry-full': models.bradleyTerryFull,
};

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const model = byName[input.model];
if (!model) {
  process.stderr.write(`unknown model ${input.model}\n`);
  process.exit(2);
}
const lines = [`openskill ${version}`];
for (const match of input.matches) {
  const teams = match.teams.map((team) => team.map(([mu, sigma]) => ({ mu, sigma })));
  const rated = rate(teams, { ...input.options, model, rank: match.rank });
  for (const team of rated) {
    for (const player of team) lines.push(`${player.mu} ${player.sigma}`);
  }
}
process.stdout.write(lines.join('\n') + '\n');
