// The table page (/play/GAME): a player plays their seat of a live game, or
// a scorer (an organiser's token) records every seat's moves of a physical
// table. The page draws the position as the signed-in token may see it
// (GetGameState: a player's own hand, the others' by size), lists the legal
// moves as buttons (ListLegalActions), posts the chosen one
// (AppendActions, with the event it follows, so a move made on a stale
// position is refused), and follows the game through the live feed
// (/api/games/GAME/watch, server-sent events from WatchGame). Its sign-in
// link (/play/GAME#token=...) signs in as every page's does (common.js).
'use strict';

const table = {
  id: '', base: '', game: null, mode: 'watch', seat: '', state: null, moves: new Map(),
  events: [], lastEvent: 0, feed: null, busy: false, refreshing: null, again: false, over: false,
};

function randomRequestId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return 'web-' + toHex(bytes);
}

function playerName(id) {
  const player = ((table.game && table.game.players) || []).find(p => p.id === id);
  return (player && player.name) || id;
}

// An event in words: the server's words for an action (Event.text), the
// page's own for the events around the play.
function eventLine(event) {
  if (event.text) return event.text;
  if (event.gameCreated) return 'the game is set up';
  if (event.seatValue) return `${playerName(event.seatValue.player)} adds a value to the deal`;
  if (event.dealClosed) return 'the deal is closed: the game takes moves';
  if (event.dealerRevealed) return 'the dealer’s secret is revealed: anyone can re-derive the deal';
  if (event.gameVoided) return `the game is voided: ${event.gameVoided.reason || ''}`;
  if (event.gameFinished) return 'the game is over';
  if (event.action) return `${playerName(event.action.player)} plays`;
  return String(event.type || '').replace(/_/g, ' ');
}

async function loadTable() {
  const main = document.getElementById('main');
  table.id = pathId();
  table.base = '/api/games/' + encodeURIComponent(table.id);
  try {
    table.game = await api(table.base);
  } catch (error) {
    main.replaceChildren(el('h1', {}, 'Table ', table.id),
      el('p', {class: 'error', role: 'alert', id: 'load-error'},
         error.status === 404 ? 'No game of this name is open to you. Sign in with your seat token (the box above) ' +
                                'or open the sign-in link you were given.'
                              : `Could not load the game: ${error.message}`));
    document.body.dataset.ready = 'error';
    return;
  }
  main.replaceChildren(
    el('h1', {}, 'Table ', table.id),
    el('p', {id: 'who', class: 'muted'}),
    el('p', {id: 'turn', 'aria-live': 'polite'}),
    el('p', {id: 'message', class: 'error', role: 'alert'}),
    el('div', {class: 'viewer'},
      el('div', {},
        el('section', {id: 'moves-panel', 'aria-label': 'moves'}, el('h2', {}, 'Moves'), el('div', {id: 'moves'})),
        el('section', {id: 'position-panel', 'aria-label': 'position'}, el('div', {id: 'position'}))),
      el('section', {id: 'event-list'}, el('h2', {}, 'Events'),
        el('ol', {class: 'events', id: 'events', 'aria-live': 'polite'}))),
    el('section', {id: 'result', hidden: true}));
  await findRole();
  await loadEvents();
  await refresh();
  performance.mark('useful');
  document.body.dataset.ready = '1';
  if (!table.over) follow();
}

// A player's token answers its own seat's moves; another token that may
// list any seat's moves is a scorer's; anyone else watches.
async function findRole() {
  table.mode = table.game.deal && !table.game.dealClosed ? 'pending' : await roleAfterTheDeal();
  const who = document.getElementById('who');
  const kind = table.game.gameType || 'a game';
  if (table.mode === 'player') who.textContent = `${kind} · you play ${playerName(table.seat)} (${table.seat})`;
  else if (table.mode === 'scorer') who.textContent = `${kind} · scorer: you record the move of whoever is to act`;
  else if (table.mode === 'pending') who.textContent = `${kind} · the deal is open`;
  else who.textContent = `${kind} · watching: sign in with your seat token to play`;
}

async function roleAfterTheDeal() {
  try {
    table.seat = (await api(table.base + '/legal-actions')).player;
    return 'player';
  } catch (error) {
    return error.status === 400 ? 'scorer' : 'watch';  // 400: "player is required"
  }
}

async function loadEvents() {
  table.events = await apiAll(table.base + '/events', 'events', 1000);
  table.lastEvent = table.events.length ? Number(table.events[table.events.length - 1].event) : 0;
  document.getElementById('events').replaceChildren(...table.events.map(eventItem));
  scrollEvents();
}

function eventItem(event) {
  return el('li', {id: 'event-' + event.event}, el('span', {class: 'muted'}, String(event.event), '. '), eventLine(event));
}

function scrollEvents() {
  const list = document.getElementById('events');
  list.scrollTop = list.scrollHeight;
}

// Reads the position and the moves again; calls that arrive meanwhile
// make one more read after it.
async function refresh() {
  if (table.refreshing) { table.again = true; return table.refreshing; }
  table.refreshing = (async () => {
    do {
      table.again = false;
      await readPosition();
    } while (table.again);
  })();
  try { await table.refreshing; } finally { table.refreshing = null; }
}

async function readPosition() {
  if (table.game.deal && !table.game.dealClosed) {
    table.game = await api(table.base);
    if (!table.game.dealClosed) return drawDealWait();
  }
  if (table.mode === 'pending') await findRole();
  // A player's own moves are read beside the position (none when it is not
  // to act); a scorer's once the position says who is to act.
  const ownMoves = table.mode === 'player' ? movesOf('') : null;
  const state = await api(table.base + '/state');
  table.state = state;
  table.over = Boolean(state.terminal) || state.verdict === 'VERDICT_ILLEGAL';
  const toAct = state.playersToAct || [];
  const moves = new Map();
  if (table.mode === 'player' && toAct.includes(table.seat)) moves.set(table.seat, await ownMoves);
  if (table.mode === 'scorer') {
    const all = await Promise.all(toAct.map(seat => movesOf(seat)));
    toAct.forEach((seat, i) => moves.set(seat, all[i]));
  }
  table.moves = moves;
  drawPosition(state);
  drawTurn(state);
  drawMoves();
  if (table.over) await showResult();
}

// A seat's legal moves ('' for the token's own), or {error} saying why not.
async function movesOf(seat) {
  try {
    return await api(table.base + '/legal-actions' + (seat ? '?player=' + encodeURIComponent(seat) : ''));
  } catch (error) {
    return {error: error.message};
  }
}

function drawPosition(state) {
  const view = state.view || {};
  document.getElementById('position').replaceChildren(
    el('p', {class: 'muted', id: 'headline'}, view.headline || ''),
    boardSvg(view), holdingsTable(view), pilesLine(view),
    el('details', {}, el('summary', {}, 'The position in words'), el('pre', {id: 'description'}, state.description || '')));
}

function drawTurn(state) {
  const turn = document.getElementById('turn');
  const toAct = state.playersToAct || [];
  if (table.over) turn.textContent = 'The game is over.';
  else if (table.mode === 'player' && toAct.includes(table.seat)) turn.textContent = 'Your turn.';
  else if (toAct.length) turn.textContent = `To act: ${toAct.map(playerName).join(', ')}.`;
  else turn.textContent = 'Waiting for the deal to close.';
  turn.className = table.mode === 'player' && toAct.includes(table.seat) && !table.over ? 'good' : '';
}

function drawMoves() {
  const box = document.getElementById('moves');
  const parts = [];

  for (const [seat, answer] of table.moves) {
    if (table.mode === 'scorer') parts.push(el('h3', {}, playerName(seat)));
    if (answer.error) { parts.push(el('p', {class: 'error'}, answer.error)); continue; }
    parts.push(...moveGroups(answer));
  }
  if (!parts.length) {
    parts.push(el('p', {class: 'muted', id: 'no-moves'},
      table.over ? 'No more moves: the game is over.'
                 : table.mode === 'watch' ? 'Only the seats’ own pages list moves.' : 'Not your turn: the moves appear when it is.'));
  }
  box.replaceChildren(...parts);
}

function drawDealWait() {
  const awaiting = (table.game.awaitingSeatValues || []).map(playerName);
  document.getElementById('turn').textContent = `The deal waits for a value from: ${awaiting.join(', ')}.`;
  document.getElementById('position').replaceChildren(
    el('p', {class: 'muted'}, 'The board is drawn once the deal is closed.'));
  // The box stays as it is while the others add theirs (a value half typed).
  if (!document.getElementById('deal-box')) {
    document.getElementById('moves').replaceChildren(signedIn() ? dealBox() : el('p', {class: 'muted'}, 'Sign in to play.'));
  }
}

// A dealt game's deal: every seat adds a value of its own, so nobody (the
// server included) chose the cards.
function dealBox() {
  const input = el('input', {id: 'seat-value', type: 'text', maxlength: 64, autocomplete: 'off',
                             'aria-label': 'Your value for the deal', placeholder: 'any words of your own'});
  const send = () => writeThen('/seat-value', {requestId: randomRequestId(), value: input.value.trim()});
  input.addEventListener('keydown', e => { if (e.key === 'Enter') send(); });
  return el('div', {id: 'deal-box'},
    el('p', {}, 'If you play a seat, add a value of your own to the deal: type anything you like. Nobody, the ' +
                'organiser and the server included, can then have chosen the cards.'),
    el('div', {class: 'controls'}, input, el('button', {type: 'button', id: 'seat-value-send', onclick: send}, 'Add to the deal')));
}

// The moves by group ("buy", "move figure 1"), each a button in words.
function moveGroups(answer) {
  const groups = new Map();
  (answer.actions || []).forEach((legal, index) => {
    if (!groups.has(legal.group)) groups.set(legal.group, []);
    groups.get(legal.group).push(el('li', {}, el('button', {
      type: 'button', class: 'move', 'data-index': index, 'data-player': answer.player,
      onclick: () => choose(answer, legal)}, legal.label)));
  });
  return [...groups].map(([group, items]) =>
    el('fieldset', {class: 'move-group'}, el('legend', {}, group || 'moves'), el('ul', {class: 'plain'}, items)));
}

function choose(answer, legal) {
  const toll = (((legal.action || {}).atlantis || {}).move || {}).toll;
  if (toll && (toll.cards || []).length) return chooseTollCards(answer, legal);
  return post(answer, legal.action);
}

// Atlantis: the cards that pay a toll, chosen card by card from the hand
// left after the move's own cards (any cards do: only their number counts).
function chooseTollCards(answer, legal) {
  const move = legal.action.atlantis.move;
  const needed = move.toll.cards.length;
  const hand = handOf(answer.player);
  for (const card of move.cards || []) {
    const i = hand.indexOf(card);
    if (i >= 0) hand.splice(i, 1);
  }
  const chosen = [];
  const box = document.getElementById('moves');
  const status = el('p', {id: 'toll-status'});
  const cards = el('div', {class: 'controls', id: 'toll-cards'});
  const confirm = el('button', {type: 'button', id: 'toll-confirm', disabled: true, onclick: () => {
    const action = JSON.parse(JSON.stringify(legal.action));
    action.atlantis.move.toll.cards = chosen.map(c => c.card);
    post(answer, action);
  }}, 'Pay and move');
  const redraw = () => {
    status.textContent = `Choose ${needed} card${needed === 1 ? '' : 's'} to pay the toll: ${chosen.length} chosen` +
      (chosen.length ? ` (${chosen.map(c => c.card).join(', ')})` : '') + '.';
    cards.replaceChildren(...hand.map((card, i) => el('button', {
      type: 'button', class: 'card', 'data-card': card, 'aria-pressed': chosen.some(c => c.i === i) ? 'true' : 'false',
      disabled: chosen.some(c => c.i === i) || chosen.length >= needed,
      onclick: () => { chosen.push({card, i}); redraw(); }}, card)));
    confirm.disabled = chosen.length !== needed;
  };
  box.replaceChildren(el('p', {}, legal.label), status, cards,
    el('div', {class: 'controls'}, confirm,
      el('button', {type: 'button', id: 'toll-undo', onclick: () => { chosen.pop(); redraw(); }}, 'Undo a card'),
      el('button', {type: 'button', id: 'toll-cancel', onclick: drawMoves}, 'Back to the moves')));
  redraw();
  cards.querySelector('button') && cards.querySelector('button').focus();
}

// The cards in a seat's hand as its holdings show them ("FLAG x2, OLIVE x1").
function handOf(player) {
  const seat = ((table.state.view || {}).players || []).find(p => p.player === player) || {};
  const cards = (seat.items || []).find(item => item.name === 'cards') || {};
  const hand = [];
  for (const part of String(cards.detail || '').split(',')) {
    const match = /^\s*([A-Z_]+) x(\d+)\s*$/.exec(part);
    if (match) for (let i = 0; i < Number(match[2]); i++) hand.push(match[1]);
  }
  return hand;
}

function post(answer, action) {
  return writeThen('/actions', {requestId: randomRequestId(), expectedLastEvent: answer.lastEvent, actions: [action]});
}

// Posts a write (a move, a value for the deal) and reads the table again;
// a refusal is shown with the server's reason.
async function writeThen(path, request) {
  if (table.busy) return;
  table.busy = true;
  const message = document.getElementById('message');
  message.textContent = '';
  document.querySelectorAll('#moves button').forEach(b => { b.disabled = true; });
  try {
    const response = await fetch(table.base + path, {
      method: 'POST', headers: {'Content-Type': 'application/json', Accept: 'application/json'},
      body: JSON.stringify(request)});
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      message.textContent = 'Refused: ' + ((body && body.error && body.error.message) || response.statusText);
    }
  } catch (error) {
    message.textContent = 'The move could not be sent: ' + error.message + '. Nothing was stored; try again.';
  } finally {
    table.busy = false;
  }
  // A stored move comes back through the live feed, which redraws the page;
  // without a feed (or after a refusal) the page reads the table itself.
  if (!table.feed || message.textContent) await refresh();
}

// The live feed: each stored event as it lands. The browser reopens a lost
// feed by itself from the last event it got.
function follow() {
  const feed = new EventSource(`${table.base}/watch?from_event=${table.lastEvent}`);
  table.feed = feed;
  feed.onmessage = message => {
    const update = JSON.parse(message.data);
    const event = update.event || {};
    if (Number(event.event) > table.lastEvent) {
      table.lastEvent = Number(event.event);
      table.events.push(event);
      document.getElementById('events').append(eventItem(event));
      scrollEvents();
    }
    if (update.gameOver) { feed.close(); table.feed = null; }
    refresh().then(() => { document.body.dataset.event = String(table.lastEvent); });
  };
  feed.addEventListener('error', message => {
    if (!message.data) return;  // a lost connection: the browser reconnects
    const body = JSON.parse(message.data);
    document.getElementById('message').textContent = 'The live feed stopped: ' + ((body.error || {}).message || '');
    feed.close();
  });
}

// Replaces `node`'s children, leaving out the parts that are null.
function replaceWith(node, ...children) {
  node.replaceChildren(...children.filter(c => c !== null && c !== undefined && c !== false));
}

// How anyone can re-derive the cards now that the game is over.
function dealLine(game) {
  const revealed = table.events.find(e => e.dealerRevealed);
  if (revealed) {
    return el('p', {id: 'deal'}, `The dealer’s secret, revealed at event ${revealed.event}: `,
      el('span', {class: 'hash'}, toHex(fromBase64(revealed.dealerRevealed.secret || ''))),
      '. With the seats’ values it gives the seed, so anyone can re-derive every card (docs/chance.md).');
  }
  if (game.seed !== undefined) {
    return el('p', {id: 'deal'}, `The deal came from seed ${game.seed}: anyone can re-derive every card with arbiter replay.`);
  }
  return null;
}

async function showResult() {
  if (table.feed) { table.feed.close(); table.feed = null; }
  await loadEvents();
  const box = document.getElementById('result');
  const [adjudication, game] = await Promise.all([api(table.base + '/adjudication'), api(table.base)]);
  table.game = game;
  const violation = adjudication.violation;
  const standings = (adjudication.standings && adjudication.standings.players) || [];
  box.hidden = false;
  standings.sort((a, b) => (a.place || 0) - (b.place || 0) || (a.seat || 0) - (b.seat || 0));
  replaceWith(box,
    el('h2', {}, 'Result'),
    el('p', {id: 'verdict', class: adjudication.verdict === 'VERDICT_LEGAL' ? 'good' : 'bad'}, verdictText(adjudication.verdict)),
    violation ? el('p', {class: 'violation'}, `event ${violation.event}: ${violation.detail || violation.rule}`) : null,
    standings.length ? el('div', {class: 'scroll'}, el('table', {id: 'standings'},
      el('thead', {}, el('tr', {}, el('th', {class: 'num'}, 'Rank'), el('th', {}, 'Player'), el('th', {class: 'num'}, 'Points'))),
      el('tbody', {}, standings.map(s => el('tr', {},
        el('td', {class: 'num'}, String(s.place || '')), el('td', {}, playerName(s.player)),
        el('td', {class: 'num'}, String(s.score || 0))))))) : null,
    adjudication.standings && adjudication.standings.cooperative
      ? el('p', {id: 'team-outcome'}, adjudication.standings.teamOutcome === 'TEAM_OUTCOME_WON' ? 'The team won.' : 'The team lost.')
      : null,
    dealLine(game),
    el('p', {}, el('a', {href: '/games/' + encodeURIComponent(table.id), id: 'audit-link'}, 'Audit this game step by step')));
}

document.addEventListener('DOMContentLoaded', loadTable);
