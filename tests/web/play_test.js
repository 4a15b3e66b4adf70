// The table page in headless Chromium (puppeteer-core): games played to
// their end from the pages alone, on a real arbiterd and its embedded
// PostgreSQL.
// - Atlantis, four seats, each its own browser context signed in by its
//   sign-in link: the deal from every seat's page, then every move picked
//   among the buttons of the page whose turn it is (tolls paid card by card
//   when the move asks for cards), every page following by its live feed.
//   Every answer and live-feed message each page received while the game was
//   on is checked for another seat's hand; the verdict and standings on
//   every page equal `arbiter replay` of the stored log. On the way: a move
//   refused by the rules and one for another seat (each shows its reason,
//   nothing is stored), a page reloaded mid-game (same position), a
//   signed-out visitor (no seat's view), another site's page posting a move
//   with the player's cookie (refused, nothing stored).
// - Atlantica, two seats, the same way.
// - Atlantis Rising recorded in scorer mode: an organiser's page records
//   every seat's moves of a seeded (physical) table.
// Prints (and writes to OUT/play.txt) the time to the first useful paint of
// the table page on a phone-sized screen and the time from a click on a move
// to its drawing on the other pages. Screenshots go to OUT.
'use strict';

const {spawn} = require('child_process');
const fs = require('fs');
const http = require('http');
const path = require('path');
const assert = require('assert/strict');
const {args, work, data, log, startDaemon, cli, offline, until, get, getJson, withBrowser, watchPage, ready, ttfp,
       text, shot, run} = require('./harness.js');

const SCRIPT_NAME = '<script>alert(1)</script>';
let site = '';
let adminCookie = '';

// A small deterministic generator, so that a failure can be replayed.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function tokenFor(player, game) {
  const file = path.join(work, `${player}-${game}.token`);
  fs.writeFileSync(file, cli(['token', 'create', '--role', 'player', '--principal', player, '--game', game]).trim());
  return fs.readFileSync(file, 'utf8').trim();
}

const adminJson = p => getJson(site, p, {headers: {Cookie: adminCookie}});
const lastEventOf = async game => Number((await adminJson(`/api/games/${game}`)).lastEvent);

// A seat's page in a browser context of its own, signed in by its link,
// recording every JSON answer and every live-feed message it gets.
async function openSeat(browser, game, seat, token, errors, viewport) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(viewport || {width: 1200, height: 900});
  const received = [];
  page.on('response', async response => {
    const url = response.url();
    if (!url.includes('/api/') || url.includes('/watch')) return;
    try { received.push({url, body: await response.text()}); } catch (e) { /* a redirect or a reload */ }
  });
  await page.evaluateOnNewDocument(() => {
    const Original = window.EventSource;
    window.feedMessages = [];
    window.EventSource = class extends Original {
      constructor(...rest) {
        super(...rest);
        super.addEventListener('message', m => window.feedMessages.push(m.data));
      }
    };
  });
  // Refusals the test provokes answer 4xx on purpose.
  // (and a scorer's first question, its own seat's moves, is 400: it has none).
  watchPage(page, `${game}/${seat}`, errors, (url, status) =>
    (url.endsWith('/actions') && [400, 403, 409].includes(status)) || (url.endsWith('/legal-actions') && status === 400) ||
    (url.includes('/watch?') && status === 0));  // a live feed cut by a reload
  const url = token ? `${site}/play/${game}#token=${token}` : `${site}/play/${game}`;
  await page.goto(url);
  await ready(page);
  assert.ok(!page.url().includes('#token'), 'the sign-in link leaves the address');
  return {seat, page, context, received};
}

async function addDealValues(seats) {
  for (const s of seats) {
    await s.page.waitForSelector('#seat-value');
    await s.page.type('#seat-value', `my own words, ${s.seat}`);
    await s.page.click('#seat-value-send');
  }
  for (const s of seats) {
    log(`  ${s.seat}: ${await text(s.page, '#turn')} ${await text(s.page, '#message')}`);
    await s.page.waitForFunction(() => !document.querySelector('#seat-value') &&
                                       /Your turn|To act/.test(document.querySelector('#turn').textContent), {timeout: 30000});
  }
}

// The page (and the seat) whose move it is: a page with move buttons.
async function pageToMove(seats) {
  for (const s of seats) {
    if (await s.page.$('#moves button.move')) return s;
  }
  return null;
}

// Clicks one of the page's moves (a toll payable in cards half the time
// there is one), paying card by card; resolves to the last event before it
// and the time of the click that sent it.
async function playOneMove(s, rng, game) {
  const before = await lastEventOf(game);
  const labels = await s.page.$$eval('#moves button.move', bs => bs.map(b => b.textContent));
  const tolls = labels.map((l, i) => [l, i]).filter(([l]) => /paying .*card/.test(l)).map(([, i]) => i);
  const index = tolls.length && rng() < 0.5 ? tolls[Math.floor(rng() * tolls.length)] : Math.floor(rng() * labels.length);
  const buttons = await s.page.$$('#moves button.move');
  let t0 = Date.now();  // the click that sends the move
  await buttons[index].click();
  let paidByCard = false;
  if (await s.page.$('#toll-cards')) {
    paidByCard = true;
    while (await s.page.$eval('#toll-confirm', b => b.disabled)) {
      const cards = await s.page.$$('#toll-cards button:not([disabled])');
      await cards[cards.length - 1].click();  // the last card of the hand: rarely the listed one
    }
    t0 = Date.now();
    await s.page.click('#toll-confirm');
  }
  return {before, paidByCard, t0};
}

// Waits until every page has drawn event `event`; the milliseconds from `t0`.
async function drawnEverywhere(seats, event, t0) {
  return Promise.all(seats.map(async s => {
    await s.page.waitForFunction(n => Number(document.body.dataset.event || 0) >= n,
                                 {timeout: 30000, polling: 'mutation'}, event);
    return Date.now() - t0;
  }));
}

// Plays a game to its end from `seats`' pages; `visit(moveNumber, seat)`
// runs before each move. Resolves to the latencies seen and the moves paid
// card by card.
async function playToEnd(seats, game, seed, visit = async () => {}) {
  const rng = random(seed);
  const latencies = [];
  let tollsByCard = 0;
  for (let move = 0; ; move++) {
    assert.ok(move < 2000, 'the game ends');
    let mover = null;
    await until('a page to move or the end', async () => {
      mover = await pageToMove(seats);
      return mover || (await text(seats[0].page, '#turn')) === 'The game is over.';
    }, 60);
    if (!mover) break;
    await visit(move, mover);
    mover = await pageToMove(seats);
    if (!mover) continue;
    const {before, paidByCard, t0} = await playOneMove(mover, rng, game);
    if (paidByCard) tollsByCard++;
    await until('the move stored', async () => (await lastEventOf(game)) > before, 30);
    const after = await lastEventOf(game);
    const times = await drawnEverywhere(seats, after, t0);
    latencies.push(...times);
  }
  return {latencies, tollsByCard};
}

// The holdings each game hides from the other seats (docs/<game>.md, "What
// is hidden from whom").
const HIDDEN_HOLDINGS = ['cards', 'divers in hand'];

// Every hand a seat held at any event of a game, as the admin sees it.
async function handsByPlayer(game) {
  const hands = new Map();
  const last = await lastEventOf(game);
  for (let event = 2; event <= last; event++) {
    let state = null;
    try { state = await adminJson(`/api/games/${game}/state?event=${event}`); } catch (e) { continue; }
    for (const p of (state.view && state.view.players) || []) {
      const cards = (p.items || []).find(i => HIDDEN_HOLDINGS.includes(i.name));
      if (!cards || !cards.detail) continue;
      if (!hands.has(p.player)) hands.set(p.player, new Set());
      hands.get(p.player).add(cards.detail);
    }
  }
  assert.ok(hands.size > 1, `the admin sees the hands of ${game}`);
  return hands;
}

// The details a position shows everyone: its piles and every holding but
// the other seats' hidden ones.
function publicDetails(json, seat) {
  const view = json && json.view;
  if (!view) return [];
  const details = (view.piles || []).map(p => p.detail);
  for (const p of view.players || []) {
    for (const item of p.items || []) {
      if (p.player === seat || !HIDDEN_HOLDINGS.includes(item.name)) details.push(item.detail);
    }
  }
  return details.filter(Boolean);
}

// No answer a seat's page got while the game was on shows another seat's
// hand: every position it got cuts the others' hands to their size, and no
// hand another seat held appears in anything it received.
async function checkNoOtherHand(s, hands) {
  const feed = await s.page.evaluate(() => window.feedMessages);
  const own = hands.get(s.seat) || new Set();
  const others = [...hands].filter(([p]) => p !== s.seat).flatMap(([, set]) => [...set]).filter(h => !own.has(h));
  let checkedStates = 0;
  for (const {url, body} of s.received) {
    let json = null;
    try { json = JSON.parse(body); } catch (e) { continue; }
    if (url.includes('/state')) {
      if (json.terminal || json.verdict === 'VERDICT_ILLEGAL') break;  // over: everyone sees everything
      checkedStates++;
      for (const p of (json.view && json.view.players) || []) {
        if (p.player === s.seat) continue;
        for (const item of p.items || []) {
          if (HIDDEN_HOLDINGS.includes(item.name)) assert.equal(item.detail, undefined, `${s.seat} sees ${p.player}'s hand`);
        }
      }
    }
    if (url.includes('/legal-actions') && !json.error) assert.equal(json.player, s.seat, 'only its own moves');
    // A public pile (Atlantica's diver discard) is written as hands are and
    // may hold what a hand once held: what the position shows openly is
    // taken out before looking for a hand.
    let rest = body;
    for (const detail of publicDetails(json, s.seat)) rest = rest.split(`"detail":${JSON.stringify(detail)}`).join('');
    for (const hand of others) {
      assert.ok(!rest.includes(`"detail":"${hand}"`), `${s.seat} received another seat's hand ${hand} from ${url}`);
    }
  }
  for (const message of feed) {
    assert.doesNotMatch(message, /"seed"/, 'no seed in the live feed while the game is on');
  }
  assert.ok(checkedStates > 0, `${s.seat}'s page read positions`);
}

// The verdict and standings on a page against `arbiter replay` of the log.
async function checkResult(s, game, names) {
  await s.page.waitForSelector('#verdict');
  const file = path.join(work, `${game}-stored.jsonl`);
  if (!fs.existsSync(file)) cli(['log', game, '-o', file]);
  const replay = JSON.parse(offline(['replay', file, '--json'], [0, 3, 4]));
  const verdict = await text(s.page, '#verdict');
  assert.match(verdict.toLowerCase(), new RegExp(replay.verdict));
  const rows = await s.page.$$eval('#standings tbody tr', trs => trs.map(tr => [...tr.cells].map(c => c.textContent)));
  const expected = [...(replay.standings || [])].sort((a, b) => a.place - b.place || a.seat - b.seat)
    .map(p => [String(p.place), names.get(p.player) || p.player, String(p.score || 0)]);
  assert.doesNotMatch(await s.page.$eval('#result', e => e.innerText), /\bnull\b/, 'a value is missing');
  assert.deepEqual(rows, expected, `${s.seat}'s standings`);
  return replay;
}

// Another site's page, opened in a signed-in player's browser, posts a move
// of that player with the player's cookie: the browser leaves the cookie out
// (another site) or the server refuses the request (another origin of the
// same site); nothing is stored either way.
async function crossSiteAttempt(s, game) {
  const before = await lastEventOf(game);
  const answer = await s.page.evaluate(async () => {
    const r = await fetch(table.base + '/legal-actions');
    return r.json();
  });
  const body = JSON.stringify({requestId: 'attack-1', expectedLastEvent: answer.lastEvent, actions: [answer.actions[0].action]});
  const target = `${site}/api/games/${game}/actions`;
  const server = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end('<!doctype html><title>elsewhere</title><p>another site</p>');
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  try {
    for (const host of ['localhost', '127.0.0.1']) {
      const attacker = await s.context.newPage();
      await attacker.goto(`http://${host}:${port}/`);
      const outcome = await attacker.evaluate(async (url, json) => {
        const results = [];
        for (const init of [{mode: 'no-cors', headers: {'Content-Type': 'text/plain'}},
                            {mode: 'cors', headers: {'Content-Type': 'application/json'}}]) {
          try {
            const r = await fetch(url, {method: 'POST', credentials: 'include', body: json, ...init});
            results.push(r.type === 'opaque' ? 'opaque' : String(r.status));
          } catch (e) { results.push('blocked'); }
        }
        return results;
      }, target, body);
      log(`  a page on http://${host}:${port} posting a move: ${outcome.join(', ')}`);
      await attacker.close();
    }
  } finally {
    server.close();
  }
  assert.equal(await lastEventOf(game), before, 'another site stored nothing');
}

async function refusals(s, game) {
  const before = await lastEventOf(game);
  const other = await s.page.evaluate(() => table.game.players.map(p => p.id).find(id => id !== table.seat));
  // A move the rules refuse: a figure the player does not have.
  await s.page.evaluate(() => post(table.moves.get(table.seat), {player: table.seat, atlantis: {move: {figure: 9, cards: []}}}));
  await s.page.waitForFunction(() => /^Refused: /.test(document.querySelector('#message').textContent));
  const illegal = await text(s.page, '#message');
  assert.match(illegal, /figure/i, 'the reason names what is wrong');
  // A move for another seat.
  await s.page.evaluate(p => post(table.moves.get(table.seat), {player: p, atlantis: {pass: {}}}), other);
  await s.page.waitForFunction(p => document.querySelector('#message').textContent.includes(p), {}, other);
  const foreign = await text(s.page, '#message');
  assert.match(foreign, /may not act for seat/);
  assert.equal(await lastEventOf(game), before, 'a refused move stores nothing');
  log(`  refused on the page: "${illegal}" / "${foreign}"`);
}

// What a seat's page shows of the other seats' hands: their size only, in
// the holdings and in the position in words.
async function checkDomHidesOtherHands(s) {
  const rows = await s.page.$$eval('#holdings tbody tr', trs => trs.map(tr => [tr.cells[0].textContent, tr.cells[1].innerText]));
  assert.ok(rows.length >= 2);
  let checked = 0;
  for (const [who, holdings] of rows) {
    if (who.trim().startsWith(s.seat)) continue;
    for (const name of HIDDEN_HOLDINGS) {
      const line = new RegExp(`^${name}: (.*)$`, 'm').exec(holdings);
      if (!line) continue;
      assert.match(line[1], /^\d+$/, `${s.seat}'s page shows ${who}'s ${name}: ${line[1]}`);
      checked++;
    }
  }
  assert.ok(checked > 0, 'the other seats have hands to hide');
  // The position in words says "hidden" for each other seat's hand.
  const hidden = ((await text(s.page, '#description')).match(/hidden/g) || []).length;
  assert.ok(hidden >= rows.length - 1, `${s.seat}'s position in words hides ${hidden} of ${rows.length - 1} hands`);
}

async function reloadKeepsPosition(s) {
  const position = await text(s.page, '#description');
  const events = await s.page.$$eval('#events li', l => l.length);
  await s.page.reload();
  await ready(s.page);
  assert.equal(await text(s.page, '#description'), position, 'a reload comes back to the same position');
  assert.equal(await s.page.$$eval('#events li', l => l.length), events);
}

async function signedOutSeesNothing(browser, game, errors) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  watchPage(page, `${game}/signed-out`, errors, url => url.endsWith(`/api/games/${game}`));
  await page.goto(`${site}/play/${game}`);
  await page.waitForSelector('body[data-ready]');
  assert.match(await text(page, '#load-error'), /Sign in with your seat token/);
  assert.equal(await page.$('#moves'), null);
  for (const p of ['', '/state', '/legal-actions?player=ann', '/events', '/watch']) {
    assert.equal((await get(`${site}/api/games/${game}${p}`)).status, 404, `signed out: ${p}`);
  }
  await context.close();
}

function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function phoneTtfp(browser, game, token) {
  const context = await browser.createBrowserContext();
  const times = [];
  for (let i = 0; i < 3; i++) {
    const page = await context.newPage();
    await page.setViewport({width: 390, height: 844, isMobile: true, hasTouch: true});
    await page.goto(`${site}/play/${game}#token=${token}`);
    await ready(page);
    times.push(await ttfp(page));
    await page.close();
  }
  await context.close();
  return percentile(times, 0.5);
}

async function atlantis(browser, errors, figures) {
  const players = ['ann', 'bob', 'cat', `dan=${SCRIPT_NAME}`];
  cli(['deal', 'create', 'atlantis', ...players.flatMap(p => ['--player', p]), '--game-id', 'atl']);
  const names = new Map(players.map(p => p.split('=')).map(([id, name]) => [id, name || id]));
  const seats = [];
  for (const [i, id] of [...names.keys()].entries()) {
    seats.push(await openSeat(browser, 'atl', id, tokenFor(id, 'atl'), errors,
                              i === 1 ? {width: 390, height: 844, isMobile: true, hasTouch: true} : undefined));
  }
  await addDealValues(seats);
  await shot(seats[0].page, 'play-desktop.png');
  await shot(seats[1].page, 'play-phone.png');
  await signedOutSeesNothing(browser, 'atl', errors);
  const {latencies, tollsByCard} = await playToEnd(seats, 'atl', 7, async (move, mover) => {
    if (move === 2) await refusals(mover, 'atl');
    if (move === 4) await crossSiteAttempt(mover, 'atl');
    if (move === 6) await reloadKeepsPosition(seats.find(s => s !== mover));
    if (move === 8) for (const s of seats) await checkDomHidesOtherHands(s);
  });
  log(`  atlantis: ${latencies.length / seats.length} moves, ${tollsByCard} tolls paid card by card`);
  const hands = await handsByPlayer('atl');
  for (const s of seats) await checkNoOtherHand(s, hands);
  for (const s of seats) await checkResult(s, 'atl', names);
  assert.equal(await s0Text(seats, '#audit-link'), 'Audit this game step by step');
  assert.match(await text(seats[0].page, '#deal'), /dealer’s secret, revealed at event \d+: [0-9a-f]{64}\./);
  await shot(seats[1].page, 'play-phone-end.png');
  figures.latencies.push(...latencies);
  figures.tollsByCard = tollsByCard;
  figures.ttfp = await phoneTtfp(browser, 'atl', tokenFor('bob', 'atl'));
  for (const s of seats) await s.context.close();
}

const s0Text = (seats, selector) => text(seats[0].page, selector);

async function atlantica(browser, errors, figures) {
  cli(['deal', 'create', 'atlantica', '--player', 'ann', '--player', 'bob', '--game-id', 'atc']);
  const names = new Map([['ann', 'ann'], ['bob', 'bob']]);
  const seats = [];
  for (const id of names.keys()) seats.push(await openSeat(browser, 'atc', id, tokenFor(id, 'atc'), errors));
  await addDealValues(seats);
  const {latencies} = await playToEnd(seats, 'atc', 11, async move => {
    if (move === 6) for (const s of seats) await checkDomHidesOtherHands(s);
  });
  log(`  atlantica: ${latencies.length / seats.length} moves`);
  const hands = await handsByPlayer('atc');
  for (const s of seats) await checkNoOtherHand(s, hands);
  for (const s of seats) await checkResult(s, 'atc', names);
  figures.latencies.push(...latencies);
  for (const s of seats) await s.context.close();
}

// A physical table: its deal is the seed's (printed with `arbiter setup`),
// and an organiser's page records every seat's moves.
async function risingByScorer(browser, errors) {
  const file = path.join(work, 'rise-full.jsonl');
  offline(['simulate', 'atlantis-rising', '--players', '3', '--seed', '5', '-o', file]);
  const header = path.join(work, 'rise.jsonl');
  fs.writeFileSync(header, fs.readFileSync(file, 'utf8').split('\n')[0] + '\n');
  const organiser = path.join(work, 'organiser.token');
  fs.writeFileSync(organiser, cli(['token', 'create', '--role', 'organiser', '--principal', 'olga']).trim());
  cli(['submit', header, '--game-id', 'rise'], [0, 3], organiser);
  const scorer = await openSeat(browser, 'rise', 'scorer', fs.readFileSync(organiser, 'utf8').trim(), errors);
  assert.match(await text(scorer.page, '#who'), /scorer/);
  const {latencies} = await playToEnd([scorer], 'rise', 5);
  log(`  atlantis rising by a scorer: ${latencies.length} moves`);
  const ids = JSON.parse(fs.readFileSync(header, 'utf8')).players.map(p => [p.id, p.name || p.id]);
  await checkResult(scorer, 'rise', new Map(ids));
  await shot(scorer.page, 'play-scorer.png');
  await scorer.context.close();
}

// A round of a small tournament played live: each player opens the sign-in
// link `arbiter tournament tokens --site` wrote (the tournament's page),
// follows their table's link to its table page, and the tables are played
// to the end there; the organiser confirms each finished table as it does a
// submitted one. The standings equal those of a twin tournament (same seed,
// players and settings, so the same tables and deals) whose tables' logs
// were submitted instead.
async function liveTournament(browser, errors) {
  const players = ['tia', 'uma', 'vic', 'wes'];
  for (const id of ['live', 'twin']) {
    cli(['tournament', 'create', id, '--game', 'atlantis', '--seed', '21', '--rounds', '1', '--table-size', '2',
         '--preferred', '2', '--place-points', '2', '--place-points', '0', ...players.flatMap(p => ['--player', p])]);
  }
  const round = JSON.parse(cli(['tournament', 'start', 'live', '1', '--json']));
  const dir = path.join(work, 'live-seats');
  cli(['tournament', 'tokens', 'live', '--out', dir, '--site', site]);
  const tables = new Map();
  for (const player of players) {
    const table = round.tables.find(t => t.players.includes(player));
    const game = table.game.replace(/^games\//, '');
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({width: 1200, height: 900});
    // Another table's game is not the player's to read: 404 for its line.
    watchPage(page, `live/${player}`, errors, (url, status) =>
      (url.includes('/watch?') && status === 0) || (url.includes('/api/games/') && status === 404));
    await page.goto(fs.readFileSync(path.join(dir, `${player}.link`), 'utf8').trim());
    await ready(page);
    assert.ok(!page.url().includes('#token'), 'the sign-in link leaves the address');
    await page.waitForSelector('body[data-tables]');
    const line = await page.$eval(`span.in-play[data-game="${game}"]`, e => e.textContent);
    assert.match(line, /^ · \d+ events, to act: \w+$/, `${player} sees its table in play`);
    await Promise.all([page.waitForNavigation(), page.click(`a.play-link[href="/play/${game}"]`)]);
    await ready(page);
    assert.match(await text(page, '#who'), new RegExp(`you play ${player}`));
    if (!tables.has(table.number)) tables.set(table.number, {game, seats: []});
    tables.get(table.number).seats.push({seat: player, page, context});
  }
  for (const [number, {game, seats}] of tables) {
    await playToEnd(seats, game, 100 + number);
    cli(['tournament', 'confirm', 'live', '1', String(number)]);
  }
  JSON.parse(cli(['tournament', 'start', 'twin', '1', '--json']));
  for (const [number, {game}] of tables) {
    const file = path.join(work, `twin-${number}.jsonl`);
    cli(['log', game, '-o', file]);
    cli(['tournament', 'play', 'twin', '1', String(number), file]);
    cli(['tournament', 'confirm', 'twin', '1', String(number)]);
  }
  const live = await getJson(site, '/api/tournaments/live/standings');
  const twin = await getJson(site, '/api/tournaments/twin/standings');
  const rows = standings => (standings.rows || []).map(r => [r.rank, r.player, r.points, r.gamePoints]);
  assert.deepEqual(rows(live), rows(twin), 'the live round stands as the submitted one');
  assert.ok(rows(live).length === players.length);
  const first = tables.values().next().value.seats[0];
  await first.page.goto(`${site}/tournaments/live`);
  await ready(first.page);
  assert.equal(await first.page.$$eval('a.play-link', a => a.length), 0, 'no table is in play any more');
  await shot(first.page, 'play-tournament.png');
  for (const {seats} of tables.values()) for (const s of seats) await s.context.close();
  log(`  a live round of ${tables.size} tables: standings as submitted`);
}

// The load the figures are taken beside: 64 more games in play on the
// server (bench/table_load, when it was built), each moving every 2 s;
// ARBITER_PLAY_LOAD_GAMES=0 (or another number) for a side-by-side figure.
const LOAD_GAMES = Number(process.env.ARBITER_PLAY_LOAD_GAMES || 64);
function startLoad(grpc) {
  const program = path.join(path.dirname(args.arbiter), 'table_load');
  if (!fs.existsSync(program) || LOAD_GAMES <= 0) return null;
  const load = spawn(program, ['--server', grpc, '--token-file', path.join(data, 'admin.token'),
                               '--games', String(LOAD_GAMES), '--move-every-ms', '2000'],
                     {stdio: ['ignore', 'pipe', 'inherit']});
  let output = '';
  load.stdout.on('data', chunk => { output += chunk; });
  load.done = new Promise(resolve => load.on('exit', code => resolve({code, output})));
  return load;
}

async function main() {
  let grpc = '';
  ({site, grpc} = await startDaemon());
  const load = startLoad(grpc);
  adminCookie = `arbiter_token=${fs.readFileSync(path.join(data, 'admin.token'), 'utf8').trim()}`;
  log('site', site);
  const figures = {latencies: [], ttfp: 0, tollsByCard: 0};
  try {
    await withBrowser(async (browser, errors) => {
    await atlantis(browser, errors, figures);
    await atlantica(browser, errors, figures);
    await risingByScorer(browser, errors);
    await liveTournament(browser, errors);
    const p50 = percentile(figures.latencies, 0.5), p99 = percentile(figures.latencies, 0.99);
    const loaded = load ? `${LOAD_GAMES} other games in play`
                        : LOAD_GAMES > 0 ? 'no other load (bench/table_load not built)' : 'no other load';
    if (load) {
      load.kill('SIGTERM');
      const {code, output} = await load.done;
      log(output.trim());
      assert.equal(code, 0, 'every move of the load was stored');
    }
    log(`beside ${loaded}:`);
    log(`TTFP table page on a phone (390 px): ${figures.ttfp.toFixed(0)} ms`);
    log(`a move to its drawing on every page: p50 ${p50} ms, p99 ${p99} ms over ${figures.latencies.length}`);
    fs.writeFileSync(path.join(args.out, 'play.txt'),
                     `table_page_phone_ttfp_ms ${figures.ttfp.toFixed(0)}\nmove_to_drawn_p50_ms ${p50}\n` +
                     `move_to_drawn_p99_ms ${p99}\nmove_to_drawn_samples ${figures.latencies.length}\n` +
                     `beside ${loaded}\n`);
    assert.ok(figures.tollsByCard > 0, 'a toll was paid card by card');
    });
  } finally {
    if (load && load.exitCode === null) load.kill('SIGTERM');
  }
}

run(main, 'the table pages passed');
