// Shared helpers of Arbiter's pages. Every value from the server is shown
// with textContent or an attribute set through the DOM, never as HTML.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

// el('td', {class: 'num'}, 'text', child, ...): an element; strings become text.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children) append(node, child);
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  for (const child of children) append(node, child);
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, String(value));
  }
}

function append(node, child) {
  if (child === undefined || child === null || child === false) return;
  if (Array.isArray(child)) { for (const c of child) append(node, c); return; }
  node.append(child instanceof Node ? child : document.createTextNode(String(child)));
}

// The JSON of an endpoint; throws an Error with the server's message.
async function api(path) {
  const response = await fetch(path, {headers: {Accept: 'application/json'}});
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (!response.ok) {
    const message = body && body.error ? body.error.message : response.statusText;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return body;
}

// Every page of a list endpoint: `field` of each answer, concatenated.
async function apiAll(path, field, pageSize) {
  const out = [];
  let token = '';
  for (let guard = 0; guard < 1000; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api(path + sep + 'page_size=' + pageSize +
                           (token ? '&page_token=' + encodeURIComponent(token) : ''));
    out.push(...(page[field] || []));
    token = page.nextPageToken || '';
    if (!token) break;
  }
  return out;
}

// "games/x" -> "x".
function idOf(name) { return String(name || '').replace(/^[a-z]+\//, ''); }

function fixed(value, digits) {
  const n = Number(value || 0);
  return n.toFixed(digits === undefined ? 1 : digits);
}

function verdictText(verdict) {
  return String(verdict || 'VERDICT_UNSPECIFIED').replace(/^VERDICT_/, '').toLowerCase().replace(/_/g, ' ');
}

function statusText(status) {
  return String(status || '').replace(/^GAME_STATUS_/, '').toLowerCase().replace(/_/g, ' ');
}

// base64 (protobuf JSON bytes) -> Uint8Array, and bytes -> hex.
function fromBase64(text) {
  const raw = atob(text || '');
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
function toHex(bytes) { return Array.from(bytes, b => b.toString(16).padStart(2, '0')).join(''); }
function fromHex(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

function showError(where, error) {
  where.replaceChildren(el('p', {class: 'error', role: 'alert'}, 'Could not load: ', error.message));
}

function query(name) { return new URLSearchParams(location.search).get(name); }

// The id in the path /kind/ID.
function pathId() { return decodeURIComponent(location.pathname.split('/')[2] || ''); }

// Signing in: a visitor with a token of their own (an auditor's, to see
// games still in play) keeps it in the cookie `arbiter_token`; the server
// then answers every page and endpoint as that token's holder. The cookie is
// sent to this site only (SameSite=Strict) and cleared by "Sign out".
const TOKEN_COOKIE = 'arbiter_token';
const TOKEN_SHAPE = /^arb_[0-9a-f]{32}_[0-9a-f]{64}$/;

function signedIn() {
  return document.cookie.split(';').some(c => c.trim().startsWith(TOKEN_COOKIE + '='));
}

function setTokenCookie(value, maxAge) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${TOKEN_COOKIE}=${value}; Path=/; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

function signInControl() {
  const header = document.querySelector('header');
  if (!header) return;
  const box = el('span', {class: 'sign-in', id: 'sign-in'});
  if (signedIn()) {
    box.append(el('span', {class: 'muted'}, 'Signed in'), ' ',
               el('button', {type: 'button', id: 'sign-out', onclick: () => {
                 setTokenCookie('', 0);
                 location.assign('/');  // this page may be one the public cannot see
               }}, 'Sign out'));
  } else {
    const input = el('input', {type: 'password', id: 'token', autocomplete: 'off',
                               'aria-label': 'Your Arbiter token', placeholder: 'arb_… token'});
    const message = el('span', {class: 'error', role: 'alert'});
    const submit = () => {
      const token = input.value.trim();
      if (!TOKEN_SHAPE.test(token)) {
        message.textContent = 'That is not an Arbiter token (arb_, 32 and 64 hex digits).';
        return;
      }
      setTokenCookie(token, 12 * 3600);
      location.reload();
    };
    input.addEventListener('keydown', e => { if (e.key === 'Enter') submit(); });
    box.append(input, ' ', el('button', {type: 'button', id: 'sign-in-button', onclick: submit}, 'Sign in'),
               ' ', message);
  }
  header.append(' ', box);
}

// A sign-in link carries the token after '#token=' (/play/GAME#token=...,
// /tournaments/T#token=...): it is kept in the sign-in cookie and taken out
// of the address before the page loads anything. The part after '#' is
// never sent to a server, so the token reaches no log and no other site.
function signInFromLink() {
  const match = /^#token=(arb_[0-9a-f]{32}_[0-9a-f]{64})$/.exec(location.hash);
  if (!match) return;
  setTokenCookie(match[1], 12 * 3600);
  history.replaceState(null, '', location.pathname + location.search);
}

signInFromLink();
document.addEventListener('DOMContentLoaded', signInControl);
