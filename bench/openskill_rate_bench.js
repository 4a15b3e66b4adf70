// Times the npm package openskill's rate() on 4-player (or N-player)
// Plackett-Luce games, one player per team, for comparison with
// bench/rating_bench.cc. Prints player updates per second.
//
//   node bench/openskill_rate_bench.js NPM_PREFIX [PLAYERS]
// NPM_PREFIX: where `npm install --prefix NPM_PREFIX openskill@5.0.1` put the
// package (the rating tests install it into build/npm).
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const prefix = path.resolve(process.argv[2] || 'build/npm');
const players = Number(process.argv[3] || 4);
const requireFromPrefix = createRequire(path.join(prefix, 'package.json'));
const { rate } = requireFromPrefix('openskill');
const version = JSON.parse(
  fs.readFileSync(path.join(prefix, 'node_modules', 'openskill', 'package.json'), 'utf8'),
).version;

// The same kind of inputs as rating_bench: 256 matches, spread-out ratings.
let x = 12345;
const next = () => {
  x = (x * 1103515245 + 12345) % 2147483648;
  return x / 2147483648;
};
const matches = [];
for (let m = 0; m < 256; m += 1) {
  const teams = [];
  const rank = [];
  for (let p = 0; p < players; p += 1) {
    teams.push([{ mu: 25 + (next() - 0.5) * 25 / 3, sigma: (25 / 3) * (0.3 + 0.7 * next()) }]);
    rank.push(1 + ((p + Math.floor(next() * players)) % players));
  }
  matches.push({ teams, rank });
}

function run(iterations) {
  let sink = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) {
    const { teams, rank } = matches[i % matches.length];
    sink += rate(teams, { rank })[0][0].mu;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, sink };
}

run(20000);  // warm up the JIT
let iterations = 20000;
let result = run(iterations);
while (result.seconds < 2) {
  iterations *= 2;
  result = run(iterations);
}
// Per CPU second, like Google Benchmark's items_per_second (the machine may
// be shared); wall-clock figures beside them.
const updates = (iterations * players) / result.cpuSeconds;
console.log(
  `openskill@${version} rate(), ${players} players (Plackett-Luce): ${iterations} matches, ` +
    `${result.cpuSeconds.toFixed(3)} s CPU (${result.seconds.toFixed(3)} s wall): ` +
    `${Math.round(updates)} updates per CPU second, ` +
    `${Math.round((iterations * players) / result.seconds)} per wall second`,
);
