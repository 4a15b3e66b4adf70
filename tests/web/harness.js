// What the browser tests share: the command line, a real arbiterd on its
// embedded PostgreSQL in a fresh directory, the `arbiter` client, pages in
// headless Chromium that record their console errors and failed requests.
//   node TEST.js --arbiterd BIN --arbiter BIN --samples DIR --npm-prefix DIR --out DIR
'use strict';

const {execFileSync, spawn} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const assert = require('assert/strict');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const puppeteer = require(path.join(args['npm-prefix'], 'node_modules', 'puppeteer-core'));

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-web-'));
fs.chmodSync(work, 0o755);  // as root the embedded PostgreSQL runs as "postgres"
const data = path.join(work, 'data');
let daemon = null;
let grpcAddress = '';

function log(...parts) { console.log(...parts); }

// Starts arbiterd; resolves to its gRPC address and the site's URL.
async function startDaemon(extra = []) {
  daemon = spawn(args.arbiterd, ['--data-dir', data, '--listen', '127.0.0.1:0',
                                 '--http-listen', '127.0.0.1:0', '--http-rate', '0',
                                 '--checkpoint-interval', '0.3', ...extra],
                 {stdio: ['ignore', 'pipe', fs.openSync(path.join(work, 'arbiterd.log'), 'w')]});
  let banner = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('arbiterd did not start: ' + banner)), 120000);
    daemon.stdout.on('data', chunk => {
      banner += chunk;
      const grpc = /listening on (\S+)/.exec(banner);
      const site = /The website is at (\S+)/.exec(banner);
      if (grpc && site) {
        clearTimeout(timer);
        grpcAddress = grpc[1];
        resolve({grpc: grpc[1], site: site[1].replace(/\/$/, '')});
      }
    });
    daemon.on('exit', code => reject(new Error('arbiterd exited with ' + code + ': ' + banner)));
  });
}

// The `arbiter` client as the admin (or with `tokenFile`); returns stdout.
// `expect` lists acceptable exit codes.
function cli(cliArgs, expect = [0], tokenFile = path.join(data, 'admin.token')) {
  try {
    return execFileSync(args.arbiter, [...cliArgs, '--server', grpcAddress, '--token-file', tokenFile],
                        {encoding: 'utf8'});
  } catch (error) {
    if (expect.includes(error.status)) return error.stdout;
    throw new Error(`arbiter ${cliArgs.join(' ')}: exit ${error.status}: ${error.stderr}`);
  }
}

// The `arbiter` client without a server (simulate, replay); `expect` as cli.
function offline(cliArgs, expect = [0]) {
  try {
    return execFileSync(args.arbiter, cliArgs, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
  } catch (error) {
    if (expect.includes(error.status)) return error.stdout;
    throw new Error(`arbiter ${cliArgs.join(' ')}: exit ${error.status}: ${error.stderr}`);
  }
}

async function until(what, check, seconds = 60) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return;
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error('timed out waiting for ' + what);
}

// A GET, tried once more if the connection fails: the server closes an idle
// kept-alive connection after 5 s, and a request sent on it just then fails
// with "fetch failed" (browsers retry idempotent requests the same way).
async function get(url, options) {
  try {
    return await fetch(url, options);
  } catch (error) {
    return fetch(url, options);
  }
}

async function getJson(site, p, options) {
  const response = await get(site + p, options);
  assert.equal(response.status, 200, p);
  return response.json();
}

async function launch() {
  return puppeteer.launch({executablePath: args.chromium || '/usr/bin/chromium', headless: true,
                           args: ['--no-sandbox', '--disable-gpu']});
}

// Records on `errors` what a page must not do: console errors, uncaught
// exceptions, dialogs, failed requests, and answers of 400 and more other
// than those `allowed` (a function of the URL and status) lets through.
function watchPage(page, url, errors, allowed = () => false) {
  page.on('console', m => { if (m.type() === 'error' && !/status of (4|5)\d\d/.test(m.text())) errors.push(`${url}: ${m.text()}`); });
  page.on('pageerror', e => errors.push(`${url}: ${e.message}`));
  page.on('dialog', d => { errors.push(`${url}: a dialog opened: ${d.message()}`); d.dismiss(); });
  page.on('requestfailed', r => { if (!allowed(r.url(), 0)) errors.push(`${url}: request failed ${r.url()}`); });
  page.on('response', r => {
    if (r.status() >= 400 && r.url() !== url && !allowed(r.url(), r.status())) errors.push(`${url}: ${r.status()} from ${r.url()}`);
  });
}

async function openPage(browser, url, errors) {
  const page = await browser.newPage();
  await page.setViewport({width: 1200, height: 900});
  watchPage(page, url, errors);
  const response = await page.goto(url);
  return {page, response};
}

async function ready(page) {
  await page.waitForSelector('body[data-ready]', {timeout: 60000});
  assert.equal(await page.$eval('body', b => b.dataset.ready), '1', 'the page loaded its data');
  const shown = await page.$eval('body', b => b.innerText);
  assert.doesNotMatch(shown, /\bundefined\b|\bNaN\b|\[object Object\]/, `a value is missing on ${page.url()}`);
}

async function ttfp(page) {
  return page.evaluate(() => performance.getEntriesByName('useful')[0].startTime);
}

const text = (page, selector) => page.$eval(selector, e => e.textContent);
const shot = (page, name) => page.screenshot({path: path.join(args.out, name), fullPage: true});

// Runs `body(browser, errors)` in a fresh headless Chromium, fails if the
// pages recorded errors (printed), and closes the browser whatever happens.
async function withBrowser(body) {
  const browser = await launch();
  const errors = [];
  try {
    await body(browser, errors);
    assert.deepEqual(errors, []);
  } catch (error) {
    if (errors.length) console.error('browser errors:\n' + errors.join('\n'));
    throw error;
  } finally {
    await browser.close();
  }
}

// Runs `main`, then stops arbiterd and removes the work directory.
function run(main, done) {
  fs.mkdirSync(args.out, {recursive: true});
  main().then(() => { log(done); }, error => {
    console.error(error);
    process.exitCode = 1;
  }).finally(() => {
    if (daemon && daemon.exitCode === null) daemon.kill('SIGTERM');
    daemon && daemon.on('exit', () => fs.rmSync(work, {recursive: true, force: true}));
  });
}

module.exports = {args, work, data, log, startDaemon, cli, offline, until, get, getJson, launch, withBrowser, watchPage,
                  openPage, ready, ttfp, text, shot, run, grpc: () => grpcAddress};
