// The website in headless Chromium (puppeteer-core): starts a real arbiterd
// on its embedded PostgreSQL, creates a league, games (a long one, an illegal
// one, one with a player named like a script), a tournament with a ruled
// dispute and a league of 100,000 rated players, then loads every page and
// checks it: no console errors, the numbers the gRPC API (through the
// `arbiter` client) reports, the viewer stepping to an event and showing the
// position the engine reports there. Screenshots go to --out; it prints the
// time to the first useful paint of the big leaderboard and the long game.
//   node browser_test.js --arbiterd BIN --arbiter BIN --samples DIR
//        --npm-prefix DIR --out DIR
'use strict';

const {execFileSync} = require('child_process');
const fs = require('fs');
const path = require('path');
const assert = require('assert/strict');
const {args, work, data, log, startDaemon, cli, offline, until, getJson, withBrowser, openPage, ready, ttfp,
       text, shot, run} = require('./harness.js');

const SCRIPT_NAME = '<script>alert(1)</script>';
const BIG_PLAYERS = 100000;

// A simulated game's log file, optionally with the first player renamed.
function simulate(game, players, seed, firstName, options = []) {
  const file = path.join(work, `${game}-${players}-${seed}.jsonl`);
  offline(['simulate', game, '--players', String(players), '--seed', String(seed), '-o', file,
           ...options.flatMap(o => ['--option', o])]);
  if (firstName) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const header = JSON.parse(lines[0]);
    header.players[0].name = firstName;
    lines[0] = JSON.stringify(header);
    fs.writeFileSync(file, lines.join('\n'));
  }
  return file;
}

function psql(sql) {
  // arbiterd writes the cluster's socket directory into arbiter.conf at every start.
  const conf = fs.readFileSync(path.join(data, 'postgres', 'arbiter.conf'), 'utf8');
  const socket = /^unix_socket_directories = '([^']+)'/m.exec(conf)[1];
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', socket, '-p', '5432', '-U', 'postgres',
                        '-d', 'arbiter', '-c', sql], {encoding: 'utf8'});
}

async function setUp(site) {
  cli(['league', 'create', 'north', '--name', 'North', '--game', 'atlantis']);
  const leagueGames = [];
  for (let seed = 1; seed <= 6; seed++) {
    const file = simulate('atlantis', 2 + (seed % 3), seed, seed === 1 ? SCRIPT_NAME : '');
    cli(['submit', file, '--game-id', `north-${seed}`, '--league', 'north']);
    leagueGames.push(`north-${seed}`);
  }
  // The long game, over 300 events: Atlantis Rising, seven players, the hard
  // blueprint (nine components to build), seed 437: 315 actions, 317 events.
  const longFile = simulate('atlantis-rising', 7, 437, '', ['blueprint=hard']);
  cli(['submit', longFile, '--game-id', 'long']);
  cli(['submit', path.join(args.samples, 'illegal-atlantis.jsonl'), '--game-id', 'illegal'], [4]);
  // A tournament of six: one round of two tables, table 1 played and
  // confirmed, a dispute on it ruled void; table 2 played on cardboard, its
  // score sheet entered with a no-show.
  // One player has a display name (any Unicode); bob withdraws after round 1.
  const players = ['ann', 'bob', 'cy', 'dee', 'eve', 'zoe=Zoë Müller'];
  cli(['tournament', 'create', 'spring', '--game', 'atlantis', '--seed', '11', '--rounds', '2',
       '--table-size', '3', '--preferred', '3', '--place-points', '4', '--place-points', '2',
       '--place-points', '1', '--tie-break', 'game_points', ...players.flatMap(p => ['--player', p])]);
  const round = JSON.parse(cli(['tournament', 'start', 'spring', '1', '--json']));
  for (const table of round.tables) {
    if (table.number === 2) {
      const [first, second, absent] = table.players;
      cli(['tournament', 'report', 'spring', '1', '2', '--place', `${first}=1`, '--place', `${second}=2`,
           '--no-show', absent, '--game-points', `${first}=30`, '--game-points', `${second}=20`,
           '--signed-by', 'Ann Lee', '--note', 'played on cardboard']);
      continue;
    }
    const file = simulate('atlantis', table.players.length, table.seed);
    cli(['tournament', 'play', 'spring', '1', String(table.number), file, '--rename-seats']);
    cli(['tournament', 'confirm', 'spring', '1', String(table.number)]);
  }
  cli(['dispute', 'open', 'd1', '--tournament', 'spring', '--round', '1', '--table', '1',
       '--event', '5', '--reason', 'a move was made out of turn']);
  cli(['dispute', 'rule', 'd1', '--kind', 'void', '--reason', 'the table agreed to replay']);
  cli(['tournament', 'withdraw', 'spring', 'bob', '--reason', 'went home']);
  // The big league: 100,000 rated players written straight into its
  // (derived, rebuildable) projection, as bench/league_bench.cc does.
  cli(['league', 'create', 'big', '--name', 'Big', '--game', 'atlantis']);
  await until('the projector', async () =>
    (await getJson(site, '/api/leagues/north')).ratedGames === String(leagueGames.length) &&
    (await getJson(site, '/api/leagues/big')).lastEvent !== undefined);
  psql(`INSERT INTO league_ratings (league_id, season, player, mu, sigma, volatility, display, games,
          last_position, last_game_id, last_played, provisional, is_virtual)
        SELECT 'big', '', 'player' || lpad(i::text, 6, '0'), 25 + (i % 997) / 100.0, 2, 0,
               1000 + (i * 7919) % 100000 / 10.0, 1 + i % 40, 1, 'g', 0, i % 40 < 3, false
        FROM generate_series(1, ${BIG_PLAYERS}) AS i;
        INSERT INTO league_tables (league_id, season, players, rated_games) VALUES ('big', '', ${BIG_PLAYERS}, 0)
        ON CONFLICT (league_id, season) DO UPDATE SET players = EXCLUDED.players;
        ANALYZE league_ratings;`);
  // The long game's last event in a signed checkpoint.
  await until('a checkpoint with the long game', async () =>
    (await getJson(site, '/api/games/long/adjudication')).lastEventInclusion !== undefined);
  const voidedGame = round.tables.find(t => t.number === 1).game.replace(/^games\//, '');
  const reportedGame = round.tables.find(t => t.number === 2).game.replace(/^games\//, '');
  return {longEvents: Number((await getJson(site, '/api/games/long')).lastEvent), leagueGames,
          voidedGame, reportedGame};
}

async function main() {
  const {site} = await startDaemon();
  log('site', site);
  const facts = await setUp(site);
  log(`long game: ${facts.longEvents} events`);
  await withBrowser(async (browser, errors) => {
    // Home: the leagues, the tournament and the finished games (ListGames
    // carries player ids only; the named player is checked on its game).
    let {page} = await openPage(browser, site + '/', errors);
    await ready(page);
    assert.match(await text(page, '#leagues'), /north/);
    assert.match(await text(page, '#tournaments'), /spring/);
    assert.equal(await page.$eval('#all-tournaments', a => a.getAttribute('href')), '/tournaments');
    const gamesText = await text(page, '#games');
    for (const id of ['north-1', 'long', 'illegal']) assert.ok(gamesText.includes(id), id);
    assert.equal(await page.$$eval('#games script', s => s.length), 0);
    await shot(page, 'home.png');

    // League: the leaderboard as `arbiter leaderboard --json` reports it.
    const rows = cli(['leaderboard', 'north', '--json']).trim().split('\n').map(line => JSON.parse(line));
    ({page} = await openPage(browser, site + '/leagues/north', errors));
    await ready(page);
    const shown = await page.$$eval('#leaderboard tbody tr', trs => trs.map(tr => [...tr.cells].map(c => c.textContent)));
    assert.equal(shown.length, rows.length);
    rows.forEach((row, i) => {
      assert.equal(shown[i][0], String(row.rank));
      assert.equal(shown[i][1], row.player);
      assert.equal(shown[i][2], Number(row.displayRating).toFixed(1));
      assert.equal(shown[i][3], String(row.games || 0));
      assert.equal(shown[i][4], row.provisional ? 'provisional' : '');
    });
    assert.match(await text(page, '#board-total'), new RegExp(`^${rows.length} players`));
    await page.click('#leaderboard tbody tr:first-child a');
    await page.waitForSelector('#rating-chart');
    assert.equal(await page.$$eval('#rating-chart circle', c => c.length), Number(rows[0].games || 0));
    await shot(page, 'league.png');

    // Tournament: standings with every tie-break value, rounds, the ruling.
    const standings = JSON.parse(cli(['tournament', 'standings', 'spring', '--json']));
    ({page} = await openPage(browser, site + '/tournaments/spring', errors));
    await ready(page);
    const standingRows = await page.$$eval('#standings-table tbody tr', trs => trs.map(tr => [...tr.cells].map(c => c.textContent)));
    assert.equal(standingRows.length, standings.rows.length);
    standings.rows.forEach((row, i) => {
      assert.equal(standingRows[i][0], String(row.rank));
      assert.equal(standingRows[i][1],
                   (row.displayName ? `${row.displayName} (${row.player})` : row.player) +
                   (row.withdrawn ? ' · withdrawn' : ''));
      assert.equal(standingRows[i][2], row.points || '0');
      assert.equal(standingRows[i][3], String(row.gamePoints || 0));
    });
    assert.ok(standingRows.some(row => row[1] === 'Zoë Müller (zoe)'), 'the display name is shown');
    assert.ok(standingRows.some(row => row[1] === 'bob · withdrawn'), 'the withdrawal is shown');
    assert.match(await text(page, '#rounds'), /Zoë Müller \(zoe\): /);
    assert.match(await text(page, '#disputes'), /Ruling: void/);
    assert.match(await text(page, '#rounds'), /Round 1/);
    // The score-sheet table is marked reported, not refereed, with its
    // signer and its no-show.
    assert.match(await text(page, '#rounds'),
                 /reported from a score sheet, not refereed \(signed by Ann Lee: played on cardboard\)/);
    assert.match(await text(page, '#rounds'), /: no-show, /);
    await shot(page, 'tournament.png');

    // The score-sheet table's game: its official result is the sheet.
    ({page} = await openPage(browser, `${site}/games/${facts.reportedGame}`, errors));
    await ready(page);
    assert.match(await text(page, '#official'),
                 /Official result: reported from a score sheet, not refereed at event 2 by \S+: score sheet signed by Ann Lee: played on cardboard/);
    assert.match(await text(page, '#official'), /no-show/);
    assert.match(await text(page, '#events'), /result reported from a score sheet signed by Ann Lee, not refereed/);

    // The voided table's game is readable by everyone: its official result
    // says it was voided, by whom and why, and its event list names the void;
    // its positions (which may show unrevealed cards) are not asked for.
    ({page} = await openPage(browser, `${site}/games/${facts.voidedGame}`, errors));
    await ready(page);
    assert.match(await text(page, '#official'),
                 /Official result: voided at event \d+ by \S+: dispute d1: the table agreed to replay/);
    assert.match(await text(page, '#events'), /game voided: dispute d1: the table agreed to replay/);
    assert.match(await text(page, '#no-positions'), /shown to admins and auditors only/);
    await shot(page, 'voided-game.png');

    // The tournament index: every tournament as `arbiter tournament list
    // --json` reports it, no seed anywhere, each linked to its page.
    const listed = cli(['tournament', 'list', '--json']).trim().split('\n').map(line => JSON.parse(line));
    ({page} = await openPage(browser, site + '/tournaments', errors));
    await ready(page);
    const indexRows = await page.$$eval('#tournaments-table tbody tr', trs => trs.map(tr => [...tr.cells].map(c => c.textContent)));
    assert.equal(indexRows.length, listed.length);
    assert.doesNotMatch(await page.$eval('main', m => m.innerText), /\bnull\b/);
    listed.forEach((t, i) => {
      assert.equal(indexRows[i][0], t.name.replace(/^tournaments\//, ''));
      assert.equal(indexRows[i][1], t.settings.gameType);
      assert.equal(indexRows[i][3], t.status);
      assert.equal(indexRows[i][4], `${t.roundsStarted || 0} of ${t.settings.rounds}`);
      assert.equal(indexRows[i][5], String(t.players.length));
      assert.equal(t.settings.seed, undefined, 'the index carries no seed');
    });
    assert.deepEqual(indexRows.find(r => r[0] === 'spring').slice(3), ['between rounds', '1 of 2', '6']);
    await shot(page, 'tournaments.png');
    await Promise.all([page.waitForNavigation(), page.click('#tournaments-table a[href="/tournaments/spring"]')]);
    await ready(page);
    assert.equal(new URL(page.url()).pathname, '/tournaments/spring');
    assert.match(await text(page, 'h1'), /spring/);

    // The game viewer: opens at ?event=N, steps with the arrows and the
    // buttons, jumps, and shows what GetGameState reports at each event.
    const middle = Math.floor(facts.longEvents / 2);
    ({page} = await openPage(browser, `${site}/games/long?event=${middle}`, errors));
    await ready(page);
    const expectAt = async event => {
      await page.waitForSelector(`#state[data-event="${event}"]`, {timeout: 30000});
      const engine = await getJson(site, `/api/games/long/state?event=${event}`);
      assert.equal(await text(page, '#description'), engine.description, `position at ${event}`);
      // The board drawn from the engine's view: every space, every piece, every player.
      const view = engine.view;
      const spaces = view.rows.reduce((n, row) => n + row.spaces.length, 0);
      const pieces = view.rows.reduce((n, row) => n + row.spaces.reduce((m, s) => m + (s.pieces || []).length, 0), 0);
      assert.equal(await page.$$eval('#board g.space', g => g.length), spaces, `spaces at ${event}`);
      assert.equal(await page.$$eval('#board circle.piece', c => c.length), pieces, `pieces at ${event}`);
      assert.equal(await page.$$eval('#holdings tbody tr', r => r.length), view.players.length);
      assert.equal(await text(page, '#headline'), view.headline);
      assert.equal(new URL(page.url()).searchParams.get('event'), String(event));
    };
    await expectAt(middle);
    await page.keyboard.press('ArrowRight');
    await expectAt(middle + 1);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expectAt(middle - 1);
    await page.click('#forward');
    await expectAt(middle);
    await page.click('#event-7 button');
    await expectAt(7);
    // The event list says each action in the server's words (Event.text), never as JSON.
    const eventList = await text(page, '#events');
    assert.doesNotMatch(eventList, /[{}]/, 'an event is listed as JSON');
    assert.match(eventList, /\b\d+\. \S.* places an Atlantean on /);
    await page.$eval('#jump', input => { input.value = '42'; input.dispatchEvent(new Event('change')); });
    await expectAt(42);
    await page.waitForFunction(() => /Hash chain intact/.test(document.getElementById('chain').textContent));
    await page.waitForFunction(() => /Included/.test(document.getElementById('inclusion').textContent),
                               {timeout: 30000});
    const adjudication = await getJson(site, '/api/games/long/adjudication');
    assert.equal(await text(page, '#tree-size'), String(adjudication.lastEventInclusion.checkpoint.treeSize));
    await page.setViewport({width: 1200, height: 800});
    await page.click('#event-42 button');
    await expectAt(42);
    // The README's picture: the controls, the board and the event list.
    const box = await (await page.$('.viewer')).boundingBox();  // relative to the viewport
    box.y += await page.evaluate(() => window.scrollY);
    await page.screenshot({path: path.join(args.out, 'game-viewer.png'), captureBeyondViewport: true,
                           clip: {x: 0, y: Math.max(0, box.y - 8), width: 1200, height: Math.min(box.height + 16, 860)}});
    await shot(page, 'game.png');

    // An illegal game: the violation at its event.
    const illegal = await getJson(site, '/api/games/illegal/adjudication');
    ({page} = await openPage(browser, `${site}/games/illegal?event=${illegal.violation.event}`, errors));
    await ready(page);
    assert.match(await text(page, '#verdict'), /illegal/);
    assert.match(await text(page, '#violation'), new RegExp(illegal.violation.rule));
    await page.waitForSelector(`#state[data-event="${illegal.violation.event}"] .violation`);
    assert.equal(await page.$eval(`#event-${illegal.violation.event}`, li => li.className.includes('illegal')), true);
    // The illegal action in the words of the verdict (RuleViolation.action_text).
    assert.equal(await text(page, `#event-${illegal.violation.event}`),
                 `${illegal.violation.event}. Player 2 (p2) moves figure 1 with STATUE, AMPHORA, paying the OLIVE 1 tile ✗`);
    assert.equal(illegal.violation.actionText, 'Player 2 (p2) moves figure 1 with STATUE, AMPHORA, paying the OLIVE 1 tile');
    await shot(page, 'illegal-game.png');

    // The script-named player's game: text, and no dialog.
    ({page} = await openPage(browser, `${site}/games/north-1`, errors));
    await ready(page);
    assert.ok((await text(page, '#summary')).includes(SCRIPT_NAME), 'the script-like name shows as text');
    assert.equal(await page.$$eval('main script', s => s.length), 0);

    // Unknown things are a 404 page; on a phone the viewer is one column.
    let response;
    ({page, response} = await openPage(browser, `${site}/games/nosuch`, []));
    assert.equal(response.status(), 404);
    ({page} = await openPage(browser, `${site}/games/long?event=3`, errors));
    await page.setViewport({width: 375, height: 740, isMobile: true});
    await ready(page);
    const columns = await page.$eval('.viewer', v => getComputedStyle(v).gridTemplateColumns.split(' ').length);
    assert.equal(columns, 1);
    await shot(page, 'game-phone.png');

    // An auditor signs in on the start page and sees a game still in play,
    // which the public does not; signing out ends it.
    const inPlayLines = fs.readFileSync(simulate('atlantis', 3, 9), 'utf8').split('\n').filter(Boolean);
    const inPlayFile = path.join(work, 'in-play.jsonl');
    fs.writeFileSync(inPlayFile, inPlayLines.slice(0, 12).join('\n') + '\n');
    cli(['submit', inPlayFile, '--game-id', 'in-play'], [0, 3]);
    const auditorToken = cli(['token', 'create', '--role', 'auditor', '--principal', 'judge']).trim();
    ({page, response} = await openPage(browser, `${site}/games/in-play`, []));
    assert.equal(response.status(), 404, 'the public does not see a game in play');
    ({page} = await openPage(browser, site + '/', errors));
    await ready(page);
    await page.type('#token', 'not a token');
    await page.click('#sign-in-button');
    assert.match(await text(page, '#sign-in .error'), /not an Arbiter token/);
    await page.$eval('#token', input => { input.value = ''; });
    await page.type('#token', auditorToken);
    await Promise.all([page.waitForNavigation(), page.click('#sign-in-button')]);
    await ready(page);
    assert.ok((await text(page, '#games')).includes('in-play'), 'the auditor sees the game in play');
    ({page, response} = await openPage(browser, `${site}/games/in-play?event=5`, errors));
    assert.equal(response.status(), 200);
    await ready(page);
    await page.waitForSelector('#state[data-event="5"]');
    await shot(page, 'auditor-game-in-play.png');
    await Promise.all([page.waitForNavigation(), page.click('#sign-out')]);
    assert.equal(page.url(), site + '/', 'signing out leads to the start page');
    ({page, response} = await openPage(browser, `${site}/games/in-play`, []));
    assert.equal(response.status(), 404, 'signed out, the game in play is hidden again');

    // Time to the first useful paint: the median of three loads each.
    const measure = async url => {
      const times = [];
      for (let i = 0; i < 3; i++) {
        const opened = await openPage(browser, url, errors);
        await ready(opened.page);
        times.push(await ttfp(opened.page));
        await opened.page.close();
      }
      return times.sort((a, b) => a - b)[1];
    };
    ({page} = await openPage(browser, site + '/leagues/big', errors));
    await ready(page);
    assert.match(await text(page, '#board-total'), /^100000 players/);
    assert.equal(await page.$$eval('#leaderboard tbody tr', t => t.length), 50);
    await shot(page, 'league-100k.png');
    const boardMs = await measure(site + '/leagues/big');
    const gameMs = await measure(site + '/games/long');
    log(`TTFP leaderboard of ${BIG_PLAYERS} players: ${boardMs.toFixed(0)} ms`);
    log(`TTFP game viewer, ${facts.longEvents}-event game: ${gameMs.toFixed(0)} ms`);
    fs.writeFileSync(path.join(args.out, 'ttfp.txt'),
                     `leaderboard_100k_ms ${boardMs.toFixed(0)}\ngame_${facts.longEvents}_events_ms ${gameMs.toFixed(0)}\n`);
  });
}

run(main, 'all pages passed');
